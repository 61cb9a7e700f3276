/**
 * The few messages the adapter writes itself (everything else comes from the
 * core). Chosen by the user's Discord locale, as the channel setting lives in the
 * core and may be exactly what failed.
 */
const texts = {
  en: {
    genericError: 'Something went wrong while answering. Please try again in a minute.',
    guildOnly: 'fundbot commands work in servers only.',
    adminOnly: 'Only members with the Manage Server permission can use this command.',
  },
  de: {
    genericError: 'Beim Antworten ist etwas schiefgegangen. Bitte versuch es in einer Minute noch einmal.',
    guildOnly: 'fundbot-Befehle funktionieren nur auf Servern.',
    adminOnly: 'Nur Mitglieder mit der Berechtigung „Server verwalten“ können diesen Befehl verwenden.',
  },
} as const;

export type AdapterText = keyof (typeof texts)['en'];

export function adapterText(key: AdapterText, platformLocale: string | undefined): string {
  return (platformLocale?.startsWith('de') ? texts.de : texts.en)[key];
}
