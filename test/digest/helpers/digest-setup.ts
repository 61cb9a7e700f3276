import { formatMoney } from '../../../src/core/format.js';
import { buildDigest, type DigestData, type renderDigest } from '../../../src/digest/index.js';
import { FakeReadModel } from '../../support/fake-read-model.js';
import { scriptedCampaign } from '../campaign-fixtures.js';

/**
 * Shared set-up of the digest content tests (build-digest-campaign, render-digest, digest-hostile-text):
 * the digest of 09:00 in Berlin on 10 March 2026, and readers of its rendered text.
 */

// 09:00 in Berlin (CET) on 10 March 2026.
export const now = Date.UTC(2026, 2, 10, 8, 0);
export const timeZone = 'Europe/Berlin';

export async function digestOf(readModel: FakeReadModel, project = 'solar-kiosk'): Promise<DigestData> {
  return buildDigest({ readModel, project, now, locale: 'en', timeZone });
}

export function campaign(): FakeReadModel {
  return new FakeReadModel({ clock: { now: () => now } }).addProject(scriptedCampaign(now));
}

/** Intl puts no-break spaces in German amounts ("8.000,00\u00a0€"); tests compare with plain spaces. */
export function plain(text: string | undefined): string | undefined {
  return text?.replace(/[\u00a0\u202f]/g, ' ');
}

/** Amounts as the shared formatter writes them (its decimals policy is the core's to choose). */
export const en = (amount: number) => formatMoney(amount, 'EUR', 'en');
export const de = (amount: number) => plain(formatMoney(amount, 'EUR', 'de'));

export function fieldValue(message: ReturnType<typeof renderDigest>, name: string): string | undefined {
  return plain(message.fields?.find((f) => f.name === name)?.value);
}

/** A list field's entries (each platform draws them with its own bullets). */
export function fieldItems(
  message: ReturnType<typeof renderDigest>,
  name: string,
): readonly string[] | undefined {
  return message.fields?.find((f) => f.name === name)?.items;
}
