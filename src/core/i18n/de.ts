import { HELD_NOTICE_DAYS } from '../../domain/held-notices.js';
import { campaignDe } from './campaign-catalog.js';
import type { Catalog } from './catalog.js';
import { hostedDe } from './hosted-catalog.js';
import { notesDe } from './note-catalog.js';
import { noticeRulesDe } from './notice-rules-catalog.js';
import { plural } from './plural.js';
import { rewardStockDe } from './reward-stock-catalog.js';
import { traceDe } from './trace-catalog.js';

const listFormat = new Intl.ListFormat('de-DE', { style: 'long', type: 'conjunction' });
const n = (count: number, one: string, other: string) => plural('de', count, { one, other });

/** German. */ /** Wie die Daten eines abgeschalteten Feeds in der Antwort heißen. */
const feedDataDe: Readonly<Record<string, string>> = {
  fundings: 'Unterstützerdaten',
  wall: 'Pinnwanddaten',
  blog: 'Blogdaten',
  project: 'Projektdaten',
  incentives: 'Belohnungsdaten',
};

export const de: Catalog = {
  common: {
    andMore: (shown, more) => `${shown} und ${more} weitere`,
    list: (items) => listFormat.format(items),
    updatedAgo: (age) => `Aktualisiert ${age}`,
    staleFigures: (age, reason) => `Zahlen von ${age}: ${reason}`,
    unlimited: 'unbegrenzt',
    soldOut: 'ausverkauft',
    left: (remaining, total) => `noch ${remaining} von ${total}`,
    locked: 'gesperrt',
    supportersOnly: 'nur für Unterstützer',
    onlyYou: 'nur für dich sichtbar',
    none: 'keine',
    someone: 'jemand',
    untitled: '(ohne Titel)',
  },
  units: {
    seconds: (c) => n(c, `${c} Sekunde`, `${c} Sekunden`),
    minutes: (c) => n(c, `${c} Minute`, `${c} Minuten`),
    hours: (c) => n(c, `${c} Stunde`, `${c} Stunden`),
    days: (c) => n(c, `${c} Tag`, `${c} Tagen`),
    moreThanAYear: 'mehr als einem Jahr',
  },
  projectStatus: {
    new: 'Entwurf (noch nicht öffentlich)',
    started: 'Startphase (Fans sammeln)',
    active: 'Finanzierungsphase',
    successful: 'Erfolgreich finanziert',
    payoff: 'Ausgezahlt',
    unknown: (raw) => `„${raw}“`,
  },
  funding: {
    fieldFunding: 'Finanzierung',
    fieldSupporters: 'Unterstützer',
    fieldModel: 'Finanzierungsart',
    fieldStatus: 'Projektstatus',
    fieldPace: 'Tempo',
    amountOfGoal: (funding, goal) => `${funding} von ${goal}`,
    noGoal: (funding) => `${funding} (kein Ziel gesetzt)`,
    supporters: (c, formatted) => n(c, `${formatted} Unterstützer`, `${formatted} Unterstützer`),
    allOrNothingReached: 'Alles-oder-nichts: Ziel erreicht ✅',
    allOrNothingMissing: (missing) => `Alles-oder-nichts: bis zum Ziel fehlen noch ${missing}`,
    flexible: 'Flexible Finanzierung: jede Unterstützung zählt',
    paceGoal: (duration, perDay) =>
      `In diesem Tempo ist das Ziel in ${duration} erreicht (≈ ${perDay} pro Tag in den letzten 24 Stunden)`,
    paceMilestone: (percent, duration, perDay) =>
      `In diesem Tempo sind ${percent} des Ziels in ${duration} erreicht (≈ ${perDay} pro Tag)`,
    paceRateOnly: (perDay) => `≈ ${perDay} pro Tag in den letzten 24 Stunden`,
    paceNone: (hours) =>
      n(
        hours,
        'Keine Unterstützung in der letzten Stunde',
        `Keine Unterstützung in den letzten ${hours} Stunden`,
      ),
    paceUnknown: 'Noch zu wenig Verlauf, um das Tempo zu schätzen',
    supportLink: 'Projekt unterstützen',
  },
  rewards: {
    title: (project) => `Dankeschöns von ${project}`,
    noneVisible: 'Zurzeit werden keine Dankeschöns angeboten.',
    lockedMissing: (missing) => `🔒 gesperrt: wird freigeschaltet, wenn noch ${missing} zusammenkommen`,
    lockedUntilGoal: '🔒 gesperrt, bis das Finanzierungsziel erreicht ist',
    andMore: (c, command) =>
      n(c, `…und 1 weiteres Dankeschön: ${command} <id>`, `…und ${c} weitere Dankeschöns: ${command} <id>`),
    idLine: (id) => `ID ${id}`,
    fieldPrice: 'Preis',
    fieldStock: 'Bestand',
    fieldState: 'Zustand',
    available: 'verfügbar',
    freeText: 'Freitext',
    openReward: 'Dankeschön öffnen',
    notFound: (id, project, command) =>
      `In ${project} gibt es kein Dankeschön ${id}. ${command} zeigt die IDs.`,
  },
  supporters: {
    title: (project) => `Neueste Unterstützer von ${project}`,
    none: 'Noch keine öffentlichen Unterstützer.',
    line: (name, age) => `• ${name} (${age})`,
  },
  blog: {
    title: (project) => `Blog von ${project}`,
    none: 'Noch keine Blogbeiträge.',
    story: 'Story',
    text: 'Blogbeitrag',
    meta: (type, date, minutes) => `${type} · ${date} · ${minutes} Min. Lesezeit`,
    teaserUnavailable: 'Diesen Beitrag können nur Unterstützer lesen.',
  },
  subscriptions: {
    subscribed: (project, kinds) =>
      `✅ Dieser Kanal bekommt jetzt ${kinds}-Benachrichtigungen von ${project}.`,
    notReadYet: (project, status) =>
      `⚠️ fundbot hat die Unterstützer von ${project} noch nicht gelesen; Benachrichtigungen kommen darum erst ab dem ersten Lesen, nicht ab jetzt: warum, zeigt ${status} (ein abgelehnter Schlüssel, ein fehlendes Recht).`,
    unsubscribed: (project, kinds) =>
      `Dieser Kanal bekommt keine ${kinds}-Benachrichtigungen von ${project} mehr.`,
    remaining: (kinds) => `Weiterhin abonniert: ${kinds}.`,
    nothingLeft: 'Von diesem Projekt kommt hier nichts mehr an.',
    notSubscribed: (project) => `Dieser Kanal hat ${project} nicht abonniert.`,
    title: 'Abos dieses Kanals',
    none: (command) => `Dieser Kanal hat keine Abos. Ein Admin kann eins mit ${command} <projekt> anlegen.`,
    line: (project, kinds) => `• ${project}: ${kinds}`,
    invalidKinds: (invalid, valid) => `Unbekannte Benachrichtigungsart ${invalid}. Gültig sind: ${valid}.`,
    notMember: (platform) =>
      platform === 'slack'
        ? 'fundbot ist nicht Mitglied dieses Kanals und kann hier daher nichts posten. Lade es mit /invite @fundbot ein und abonniere dann noch einmal.'
        : 'fundbot kann diesen Kanal nicht sehen. Gib der Rolle des Bots in diesem Kanal „Kanal ansehen“ und „Nachrichten senden“ und abonniere dann noch einmal.',
    noPermission: (platform, missing) =>
      platform === 'slack'
        ? 'Slack lässt fundbot in diesem Kanal nicht posten. Ein Workspace-Admin kann es in den Posting-Einstellungen des Kanals erlauben; dann noch einmal abonnieren.'
        : `fundbot darf in diesem Kanal nicht posten. Gib der Rolle des Bots in den Berechtigungen dieses Kanals (Kanal bearbeiten → Berechtigungen) ${missing ?? '„Nachrichten senden“'} und abonniere dann noch einmal.`,
    archived:
      'Dieser Kanal ist archiviert, fundbot kann hier nicht posten. Hol ihn aus dem Archiv oder abonniere einen anderen Kanal.',
    accessUnknown:
      'fundbot konnte nicht prüfen, ob es in diesem Kanal posten darf, daher wurde nichts abonniert. Versuch es in einer Minute noch einmal; klappt es weiter nicht, sollte der Betreiber des Bots dessen Logs ansehen.',
    permissionNames: {
      'view-channel': '„Kanal ansehen“',
      'send-messages': '„Nachrichten senden“',
      'send-messages-in-threads': '„Nachrichten in Threads senden“',
      'embed-links': '„Links einbetten“',
      'attach-files': '„Dateien anhängen“',
    },
  },
  access: {
    problem: (problem, platform, missing) => {
      switch (problem) {
        case 'not-member':
          return platform === 'slack'
            ? 'fundbot ist nicht in diesem Kanal: lade es mit /invite @fundbot ein.'
            : 'fundbot kann diesen Kanal nicht sehen: gib seiner Rolle hier „Kanal ansehen“.';
        case 'no-permission':
          return platform === 'slack'
            ? 'eine Workspace-Regel verbietet fundbot, hier zu posten: ein Workspace-Admin kann es in den Kanaleinstellungen erlauben.'
            : `fundbot darf hier nicht posten: gib seiner Rolle in diesem Kanal ${missing ?? '„Nachrichten senden“'}.`;
        case 'archived':
          return 'der Kanal ist archiviert: hol ihn aus dem Archiv oder beende das Abonnement.';
        case 'gone':
          return 'der Kanal ist weg oder fundbot wurde entfernt: beende das Abonnement oder lade fundbot wieder ein.';
        case 'token-revoked':
          return 'die Plattform lehnt fundbots Token ab: die App muss neu installiert werden.';
        case 'unknown':
          return 'die Plattform lehnt fundbots Beiträge hier ab.';
      }
    },
    cannotPost: (problem, since) =>
      `⚠️ fundbot kann hier seit ${since} nicht posten: ${problem} Meldungen werden gesammelt (bis zu ${HELD_NOTICE_DAYS} Tage) und gebündelt nachgeholt, sobald es wieder geht.`,
  },
  pacing: {
    mode: (mode, minutes) =>
      ({
        auto: 'automatisch',
        live: 'live',
        batched: `gesammelt alle ${minutes} Min.`,
        hourly: 'stündlich',
        digest: 'nur im Tagesbericht',
      })[mode],
    explain: (mode, minutes) =>
      ({
        auto: 'jede Meldung sofort, solange es im Kanal ruhig ist (weniger als 4 Nachrichten dieser Art in der letzten Stunde), dann eine Nachricht alle 10 Minuten mit allem dazwischen',
        live: 'jede Meldung sofort',
        batched: `eine Nachricht alle ${minutes} Minuten mit allem dazwischen`,
        hourly: 'eine Nachricht pro Stunde mit allem dazwischen',
        digest: 'hier nicht gepostet; der Tagesbericht zählt sie',
      })[mode],
    set: (kinds, mode) => `✅ ${kinds} in diesem Kanal: ${mode}.`,
    kindWithMode: (kind, mode) => `${kind} (${mode})`,
    quietSet: (range) =>
      `✅ Ruhezeit ${range}: Meldungen werden dann gesammelt und an ihrem Ende als eine Nachricht pro Art gepostet.`,
    quietCleared: '✅ Ruhezeit aus: Meldungen folgen zu jeder Stunde ihrem Takt.',
    quietLine: (range) => `Ruhezeit: ${range}`,
    quietNone: 'Ruhezeit: aus',
    minutesOnlyForBatched: (given, usage) =>
      `Minuten gibt es nur bei batched (angegeben: ${given}). Tippe zum Beispiel: ${usage}`,
    invalidMinutes: (given, min, max) => `„${given}“ Minuten gehen nicht: erlaubt sind ${min} bis ${max}.`,
    invalidHours: (given, example) =>
      `„${given}“ ist keine Zeitspanne. Gib Beginn und Ende als HH:MM-HH:MM an, zum Beispiel ${example}, oder off.`,
    invalidTimeZone: (given, example) =>
      `„${given}“ ist keine bekannte Zeitzone. Nimm einen Namen wie Europe/Berlin oder America/New_York, zum Beispiel ${example}.`,
    emptyQuiet: (example) => `Die Ruhezeit braucht Beginn und Ende, zum Beispiel ${example}.`,
    notConfigured: 'Der Takt ist in dieser fundbot-Instanz nicht eingerichtet; frag ihren Betreiber.',
  },
  language: {
    setChannel: 'Dieser Kanal spricht jetzt Deutsch.',
    setWorkspace:
      'Der ganze Server/Workspace spricht jetzt Deutsch (Kanäle mit eigener Einstellung behalten sie).',
    invalidLocale: (given, valid) => `„${given}“ ist keine Sprache, die fundbot spricht. Wähle: ${valid}.`,
    invalidScope: (given) => `„${given}“ ist kein Bereich: nimm channel oder workspace.`,
  },
  status: {
    title: (project) => `fundbot-Status für ${project}`,
    feedOk: (age, interval) => `letzte Abfrage ${age} (alle ${interval})`,
    feedNever: 'noch keine erfolgreiche Abfrage',
    within: (window) => `innerhalb der letzten ${window}`,
    feedDisabled: (reason) => `abgeschaltet: ${reason}`,
    fieldBudget: 'API-Budget heute',
    budget: (remaining, limit) => `noch ${remaining} von ${limit} Anfragen`,
    budgetReset: (at) => `zurückgesetzt ${at}`,
    budgetUnknown: 'unbekannt bis zur ersten Antwort',
    fieldErrors: 'Letzte Fehler',
    noErrors: 'keine',
    fieldOperation: 'Betrieb',
    paused: (since, reason, fix) =>
      `Abfragen pausiert seit ${since}: ${reason}. ${fix === 'connect' ? 'Ein Admin verbindet das Projekt erneut mit einem Project-API-Schlüssel dieses Projekts (der connect-Befehl)' : 'Der Betreiber muss den API-Schlüssel dieses Projekts ersetzen'}; ein neuer Schlüssel wird sofort versucht, und die Abfragen laufen von selbst weiter, sobald die Plattform den Schlüssel wieder annimmt.`,
    storeFailing: (detail) =>
      `Der Speicher antwortet nicht (${detail}): neue Meldungen warten, bis er wieder antwortet.`,
    storeEmptied: (detail) => `Der Speicher war leer (der Betreiber muss handeln): ${detail}.`,
    apiDrift: (detail) => `Die API der Plattform hat sich geändert: ${detail}`,
    pollingCeiling: (detail) =>
      `Die Feeds werden langsamer gelesen, als der API-Tarif des Projekts erlaubt: dieser fundbot-Prozess fragt so schnell ab, wie er darf (${detail}). Der Betreiber kann eine Replik hinzufügen.`,
    version: (version) => `fundbot ${version}`,
    feedNames: {
      project: 'Projekt',
      incentives: 'Dankeschöns',
      fundings: 'Unterstützer',
      wall: 'Pinnwand',
      blog: 'Blog',
    },
  },
  help: {
    title: 'Was fundbot kann',
    adminOnly: '(Admins)',
    footer: '[ ] markiert einen optionalen Wert, < > einen nötigen.',
  },
  errors: {
    title: 'Das hat nicht geklappt',
    needAdmin: (platform) =>
      platform === 'slack'
        ? 'Das dürfen nur Workspace-Admins. Frag einen Admin dieses Workspaces.'
        : platform === 'discord'
          ? 'Dafür brauchst du die Berechtigung „Server verwalten“. Frag einen Server-Admin.'
          : 'Das darf nur ein Administrator.',
    unknownProject: (given, watched) =>
      `fundbot beobachtet „${given}“ nicht. Beobachtete Projekte: ${watched}.`,
    noWatchedProjects:
      'fundbot beobachtet noch kein Projekt: richte eins in der Konfiguration ein (FUNDBOT_PROJECTS).',
    whichProject: (choices) => `Welches Projekt? Gib eins an: ${choices}.`,
    platformDown: 'Die Crowdfunding-Plattform antwortet gerade nicht; versuch es in einer Minute noch mal.',
    rateLimited: 'fundbot hat sein API-Budget gerade aufgebraucht; versuch es in einer Minute noch mal.',
    notPermitted:
      'Der API-Schlüssel von fundbot darf das nicht lesen. Ein Admin sollte die Scopes des Schlüssels prüfen (siehe /status).',
    feedOff: (feed, scope) =>
      `${feedDataDe[feed] ?? 'Diese Daten'} sind für dieses Projekt abgeschaltet: seinem API-Schlüssel fehlt ${scope}. Ein Admin kann diesen Scope zum Schlüssel hinzufügen.`,
    projectPaused:
      'fundbot hat dieses Projekt pausiert: die Plattform lehnt seinen API-Schlüssel ab. Ein Admin muss den Schlüssel ersetzen (Projektverwaltung → API-Schlüssel).',
    projectNotFound: (project) => `Die Plattform kennt das Projekt „${project}“ nicht (oder verbirgt es).`,
    digestNotConfigured: 'Die tägliche Zusammenfassung ist auf diesem Bot nicht eingerichtet.',
    chartNotConfigured: 'Das Finanzierungsdiagramm ist auf diesem Bot nicht verfügbar.',
    unknownCommand: (name, help) => `Den Befehl „${name}“ gibt es nicht. Probier ${help}.`,
    useSlackCommand: (typed, usage) => `Auf Slack hat fundbot einen Befehl: statt ${typed} tippe ${usage}`,
    unknownSubcommand: (word, list, help) =>
      `fundbot hat keinen Unterbefehl „${word}“. Die Unterbefehle sind: ${list}. ${help} erklärt jeden.`,
    internal: 'Bei fundbot ist etwas schiefgegangen; versuch es in einer Minute noch mal.',
    storeDown:
      'Der Speicher ist nicht erreichbar; es geht nichts verloren. fundbot konnte das gerade weder lesen noch speichern: versuch es in ein paar Minuten noch mal (der Betreiber sieht den Grund in /healthz und im Log).',
    notInstalled: (installUrl) =>
      `fundbot ist in diesem Workspace nicht installiert: bitte einen Workspace-Admin, es${installUrl ? ` unter ${installUrl}` : ' (den Link hat der Betreiber)'} zu installieren, und versuch es dann noch mal.`,
    missingOption: (option, usage) => `${option} fehlt. Aufruf: ${usage}`,
    invalidInteger: (option, given) => `${option} muss eine ganze Zahl sein, nicht „${given}“.`,
    invalidBoolean: (option, given) => `${option} muss ja oder nein sein, nicht „${given}“.`,
    invalidChoice: (option, given, valid) =>
      `„${given}“ ist kein gültiger Wert für ${option}. Wähle: ${valid}.`,
    tooManyArguments: (extra, usage) => `Zu viele Angaben („${extra}“). Aufruf: ${usage}`,
    unterminatedQuote: 'Ein Anführungszeichen ist nicht geschlossen.',
    notACommand: 'Befehle beginnen mit einem Schrägstrich, zum Beispiel /funding. Probier /help.',
  },
  notices: {
    supporter: (name) => `🎉 Neuer Unterstützer: ${name}`,
    supporterCountNow: (c) => `Jetzt ${c} Unterstützer`,
    total: (amount) => `Insgesamt ${amount}`,
    supporterBurst: (c, formatted) => n(c, '🎉 1 neuer Unterstützer', `🎉 ${formatted} neue Unterstützer`),
    wallPost: (author) => `💬 Neuer Pinnwand-Eintrag von ${author}`,
    wallPostBurst: (c, formatted) =>
      n(c, '💬 1 neuer Pinnwand-Eintrag', `💬 ${formatted} neue Pinnwand-Einträge`),
    wallPostBurstBy: (authors) => `Von ${authors}`,
    blogPost: (title) => `📝 Neuer Blogbeitrag: ${title}`,
    readPost: 'Beitrag lesen',
    fieldType: 'Art',
    milestone: (percent) => `🏁 ${percent} des Finanzierungsziels erreicht`,
    goalReached: '🎯 Finanzierungsziel erreicht!',
    goalReachedText: 'Alles-oder-nichts-Ziel erreicht: das Projekt wird finanziert.',
    rewardSoldOut: (title) => `Ausverkauft: ${title}`,
    rewardUnlocked: (title) => `🔓 Freigeschaltet: ${title}`,
    rewardPrice: (price) => `Preis ${price}`,
    projectStatus: (to) => `Projektstatus: ${to}`,
    projectStatusChange: (from, to) => `Projektstatus: ${from} → ${to}`,
    watching: (title) => `👀 fundbot beobachtet jetzt ${title}`,
    footer: (project) => `Projekt ${project}`,
  },
  notes: notesDe,
  hosted: hostedDe,
  rewardStock: rewardStockDe,
  campaign: campaignDe,
  // Issue 32 item 2: the delivery trace.
  trace: traceDe,
  // Issue 32 item 6: pings and filters.
  noticeRules: noticeRulesDe,
};
