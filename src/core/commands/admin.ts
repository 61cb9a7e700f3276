import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { CommandRefusal } from '../command-refusal.js';
import { catalogFor, isLocale, locales } from '../i18n/index.js';
import type { NeutralMessage } from '../message.js';
import type { SettingScope } from '../settings/settings-store.js';
import type { CommandRun } from './command-run.js';

/** /language <en|de> [channel|workspace]: the language of this channel or the whole server/workspace. */
export async function languageCommand(run: CommandRun): Promise<NeutralMessage> {
  const rawLocale = String(run.invocation.options['locale'] ?? '')
    .trim()
    .toLowerCase();
  if (!isLocale(rawLocale)) {
    throw new CommandRefusal((t) =>
      t.language.invalidLocale(singleLine(rawLocale, limits.name), locales.join(', ')),
    );
  }
  const rawScope =
    String(run.invocation.options['scope'] ?? 'channel')
      .trim()
      .toLowerCase() || 'channel';
  if (rawScope !== 'channel' && rawScope !== 'workspace') {
    throw new CommandRefusal((t) => t.language.invalidScope(singleLine(rawScope, limits.name)));
  }
  const scope: SettingScope = rawScope;
  await run.deps.settings.setLocale(run.invocation.context.channel, scope, rawLocale);
  // Confirmed in the new language: the admin sees at once what the channel will read.
  const t = catalogFor(rawLocale);
  return {
    text: scope === 'channel' ? t.language.setChannel : t.language.setWorkspace,
    tone: 'success',
    private: true,
  };
}
