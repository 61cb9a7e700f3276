import { displayName } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import type { Locale } from '../command-core.js';
import { catalogFor } from '../i18n/index.js';

/**
 * Every name of a batch or a burst, split into messages so that every supporter is
 * named and the count and the names agree: the first part goes into the notice
 * itself, the others into its thread (or follow-up messages where the platform has
 * no threads). Names are untrusted plain text: bounded to one line of
 * `limits.name`; one that shows nothing is listed as "a supporter" (it still counts).
 */
export function splitNames(names: readonly string[], locale: Locale): string[][] {
  const someone = catalogFor(locale).common.someone;
  const parts: string[][] = [];
  let part: string[] = [];
  let used = 0;
  for (const raw of names) {
    const name = displayName(raw, limits.name, someone);
    const cost = name.length + 2;
    if (part.length > 0 && used + cost > limits.batchNames) {
      parts.push(part);
      part = [];
      used = 0;
    }
    part.push(name);
    used += cost;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}
