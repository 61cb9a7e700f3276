import type { CommandDefinition } from './command-definitions.js';

/*
 * The campaign commands of issue 32 (items 4 and 5), beside the other definitions: the registry lists them
 * with the rest, so Discord's registration, the Slack manifest's usage and /help carry them.
 */

/**
 * /deadline <date>|off [project]: the campaign's end, which the API does not give; the goal-pace alerts need it.
 * The registry adds the one project option.
 */
export const deadlineCommandDefinition: CommandDefinition = {
  name: 'deadline',
  description: {
    en: "Set the campaign's end (YYYY-MM-DD) for the goal-pace alerts, or off",
    de: 'Ende der Kampagne (JJJJ-MM-TT) für die Tempo-Hinweise festlegen, oder off',
  },
  options: [
    {
      name: 'date',
      description: {
        en: 'The last day of the campaign, e.g. 2026-12-24 (this channel’s time zone), or off',
        de: 'Letzter Tag der Kampagne, z. B. 2026-12-24 (Zeitzone dieses Kanals), oder off',
      },
      type: 'string',
      required: true,
    },
  ],
  admin: true,
};

/** /rollcall weekly|monthly|off: a thank-you naming every supporter since the last one. */
export const rollCallCommandDefinition: CommandDefinition = {
  name: 'rollcall',
  description: {
    en: 'A weekly or monthly thank-you here naming every supporter since the last one, or off',
    de: 'Wöchentlicher oder monatlicher Dank hier mit allen neuen Unterstützer*innen, oder off',
  },
  options: [
    {
      name: 'cadence',
      description: { en: 'weekly, monthly or off', de: 'weekly (wöchentlich), monthly (monatlich) oder off' },
      type: 'string',
      required: true,
      choices: [
        { name: 'weekly', value: 'weekly' },
        { name: 'monthly', value: 'monthly' },
        { name: 'off', value: 'off' },
      ],
    },
  ],
  admin: true,
};
