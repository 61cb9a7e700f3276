import type { ConnectRefusal } from '../hosted-projects.js';

/** Words of hosted fundbot (issue 24): /connect, /disconnect, /projects and the connect form. */
export interface HostedCatalog {
  readonly off: string;
  readonly formTitle: string;
  /** Shown where a platform cannot open the form. */
  readonly formOpened: string;
  /** The platform refused to open the form (Slack allows 3 s after the command). */
  readonly formFailed: (connect: string) => string;
  readonly projectLabel: string;
  readonly projectHint: string;
  readonly keyLabel: string;
  readonly keyHint: string;
  readonly submit: string;
  /** `off`: the feeds a missing scope turns off, listed; `subscribe`: how to subscribe a channel. */
  readonly connected: (project: string, off: string | undefined, subscribe: string) => string;
  readonly rotated: (project: string, off: string | undefined) => string;
  /** `place`: {@link HostedCatalog.place} of the platform; `scopes`: what the key lacks (scope-missing). */
  readonly refused: (
    reason: ConnectRefusal,
    project: string,
    limit: number,
    place: string,
    scopes: string | undefined,
  ) => string;
  readonly disconnected: (project: string) => string;
  readonly notConnected: (project: string, place: string) => string;
  /** What the platform calls where fundbot is installed: a Slack workspace, a Discord server. */
  readonly place: (platform: string) => string;
  readonly listTitle: string;
  readonly ownField: (used: number, limit: number) => string;
  readonly operatorField: string;
  readonly none: (connect: string) => string;
  readonly connectedLine: (project: string, by: string, off: string | undefined) => string;
  /** The workspace overview (Slack App Home, /status without a project). */
  readonly overviewTitle: (place: string) => string;
  readonly overviewNone: (connect: string) => string;
  readonly funding: (raised: string, goal: string) => string;
  readonly fundingUnknown: string;
  readonly channels: (list: string) => string;
  readonly noChannels: (subscribe: string) => string;
  readonly lastPoll: (age: string) => string;
  readonly neverPolled: string;
  readonly keyProblem: (note: string) => string;
  /** A channel of this place fundbot cannot post in (its notices are held for a catch-up). */
  readonly cannotPost: (channel: string, problem: string, since: string) => string;
  readonly fromOperator: string;
  readonly connectButton: string;
  readonly disconnectButton: string;
}

export const hostedEn: HostedCatalog = {
  off: 'Connecting projects from chat is not enabled on this fundbot: ask its operator (hosted.enabled).',
  formTitle: 'Connect a project',
  formOpened: 'Fill in the form fundbot opened: the key goes straight to fundbot, never into a channel.',
  formFailed: (connect) =>
    `The connect form did not open (the platform allows only a few seconds after the command): type ${connect} again.`,
  projectLabel: 'Project (link caption)',
  projectHint: 'The slug from the project URL, e.g. solar-kiosk',
  keyLabel: 'Project API key',
  keyHint: 'svc_proj_… (project settings → API). Sent to fundbot only, stored encrypted.',
  submit: 'Connect',
  connected: (project, off, subscribe) =>
    `✅ ${project} is connected: fundbot watches it from now on. Subscribe a channel with ${subscribe}.${off ? ` The key lacks scopes, so these stay off: ${off}.` : ''}`,
  rotated: (project, off) =>
    `🔑 The key of ${project} was replaced; the old one is no longer used.${off ? ` The new key lacks scopes, so these stay off: ${off}.` : ''}`,
  refused: (reason, project, limit, place, scopes) => {
    switch (reason) {
      case 'bad-caption':
        return `"${project}" is not a project link caption (letters, digits, - and _ from its URL).`;
      case 'bad-key-format':
        return 'That is not a Project API key (it starts with svc_proj_): copy it again from the project settings.';
      case 'user-key':
        return `That is a User API key (svc_user_…): fundbot needs the Project API key of ${project} (svc_proj_…, project administration → API keys). Nothing was stored.`;
      case 'limit':
        return `This ${place} has connected ${limit} projects, the most this fundbot allows: disconnect one first.`;
      case 'operator-project':
        return `${project} is watched by this fundbot's operator already: subscribe to it directly.`;
      case 'other-workspace':
        return `${project} is connected by another ${place}: one ${place} per project.`;
      case 'not-readable':
        return `${project} cannot be read with this key: the project was not found or its plan is below Pro. Nothing was stored.`;
      case 'key-rejected':
        return `The platform refuses this key (invalid or deleted): create a new Project API key for ${project} (project administration → API keys) and connect again. Nothing was stored.`;
      case 'key-other-project':
        return `This key belongs to another project, not to ${project}: create a Project API key in the administration of ${project} (API keys) and connect again. Nothing was stored.`;
      case 'scope-missing':
        return `This key lacks ${scopes ?? 'fundings:read'}: without fundings:read fundbot cannot announce a single supporter. Create a key for ${project} with fundings:read, project:read, incentives:read, wall:read and blog:read and connect again. Nothing was stored.`;
      case 'unverified':
        return 'The platform did not answer the key check: nothing was stored; try again in a minute.';
      case 'baseline-failed':
        return `The key works, but fundbot could not read ${project}'s supporters just now, so it cannot promise to watch from now on: nothing was stored; try again in a minute.`;
    }
  },
  disconnected: (project) =>
    `${project} is disconnected: its key is deleted and fundbot stopped watching it.`,
  notConnected: (project, place) => `This ${place} has no connected project "${project}".`,
  place: (platform) => (platform === 'discord' ? 'server' : 'workspace'),
  listTitle: 'Projects',
  ownField: (used, limit) => `Connected here (${used} of ${limit})`,
  operatorField: "From fundbot's operator",
  none: (connect) => `None yet: an admin connects one with ${connect}.`,
  connectedLine: (project, by, off) =>
    `${project} (by ${by})${off ? `: off for missing scopes: ${off}` : ''}`,
  overviewTitle: (place) => `fundbot in this ${place}`,
  overviewNone: (connect) => `No project yet: an admin connects one with ${connect}.`,
  funding: (raised, goal) => `💰 ${raised} of ${goal}`,
  fundingUnknown: '💰 not read yet',
  channels: (list) => `📣 ${list}`,
  noChannels: (subscribe) => `📣 no channel yet (${subscribe})`,
  lastPoll: (age) => `🩺 last poll ${age}`,
  neverPolled: '🩺 not polled yet',
  keyProblem: (note) => `⚠️ ${note}`,
  cannotPost: (channel, problem, since) =>
    `⚠️ cannot post in ${channel} since ${since} (${problem}): its notices are held for a catch-up`,
  fromOperator: "from fundbot's operator",
  connectButton: 'Connect a project',
  disconnectButton: 'Disconnect',
};

export const hostedDe: HostedCatalog = {
  off: 'Projekte aus dem Chat zu verbinden ist bei diesem fundbot nicht eingeschaltet: frag den Betreiber (hosted.enabled).',
  formTitle: 'Projekt verbinden',
  formOpened:
    'Füll das Formular aus, das fundbot geöffnet hat: der Schlüssel geht direkt an fundbot, nie in einen Kanal.',
  formFailed: (connect) =>
    `Das Formular zum Verbinden hat sich nicht geöffnet (die Plattform lässt nach dem Befehl nur wenige Sekunden Zeit): gib ${connect} noch einmal ein.`,
  projectLabel: 'Projekt (Link-Kürzel)',
  projectHint: 'Das Kürzel aus der Projekt-URL, z. B. solar-kiosk',
  keyLabel: 'Project-API-Schlüssel',
  keyHint: 'svc_proj_… (Projekteinstellungen → API). Geht nur an fundbot, wird verschlüsselt gespeichert.',
  submit: 'Verbinden',
  connected: (project, off, subscribe) =>
    `✅ ${project} ist verbunden: fundbot beobachtet es ab jetzt. Abonniere es in einem Kanal mit ${subscribe}.${off ? ` Dem Schlüssel fehlen Rechte, darum bleibt aus: ${off}.` : ''}`,
  rotated: (project, off) =>
    `🔑 Der Schlüssel von ${project} wurde ersetzt; der alte wird nicht mehr benutzt.${off ? ` Dem neuen Schlüssel fehlen Rechte, darum bleibt aus: ${off}.` : ''}`,
  refused: (reason, project, limit, place, scopes) => {
    switch (reason) {
      case 'bad-caption':
        return `„${project}“ ist kein Link-Kürzel eines Projekts (Buchstaben, Ziffern, - und _ aus der URL).`;
      case 'bad-key-format':
        return 'Das ist kein Project-API-Schlüssel (er beginnt mit svc_proj_): kopier ihn noch einmal aus den Projekteinstellungen.';
      case 'user-key':
        return `Das ist ein User-API-Schlüssel (svc_user_…): fundbot braucht den Project-API-Schlüssel von ${project} (svc_proj_…, Projektverwaltung → API-Schlüssel). Nichts wurde gespeichert.`;
      case 'limit':
        return `Dieser ${place} hat schon ${limit} Projekte verbunden, mehr erlaubt dieser fundbot nicht: trenn zuerst eines.`;
      case 'operator-project':
        return `${project} beobachtet der Betreiber dieses fundbot schon: abonniere es direkt.`;
      case 'other-workspace':
        return `${project} ist schon mit einem anderen ${place} verbunden: ein ${place} pro Projekt.`;
      case 'not-readable':
        return `${project} lässt sich mit diesem Schlüssel nicht lesen: Projekt nicht gefunden oder Tarif unter Pro. Nichts wurde gespeichert.`;
      case 'key-rejected':
        return `Die Plattform lehnt diesen Schlüssel ab (ungültig oder gelöscht): leg einen neuen Project-API-Schlüssel für ${project} an (Projektverwaltung → API-Schlüssel) und verbinde noch einmal. Nichts wurde gespeichert.`;
      case 'key-other-project':
        return `Dieser Schlüssel gehört zu einem anderen Projekt, nicht zu ${project}: leg in der Verwaltung von ${project} einen Project-API-Schlüssel an (API-Schlüssel) und verbinde noch einmal. Nichts wurde gespeichert.`;
      case 'scope-missing':
        return `Diesem Schlüssel fehlt ${scopes ?? 'fundings:read'}: ohne fundings:read kann fundbot keinen einzigen Unterstützer melden. Leg für ${project} einen Schlüssel mit fundings:read, project:read, incentives:read, wall:read und blog:read an und verbinde noch einmal. Nichts wurde gespeichert.`;
      case 'unverified':
        return 'Die Plattform hat auf die Prüfung nicht geantwortet: nichts gespeichert; versuch es in einer Minute noch mal.';
      case 'baseline-failed':
        return `Der Schlüssel funktioniert, aber fundbot konnte die Unterstützer von ${project} gerade nicht lesen und kann darum nicht versprechen, ab jetzt zu beobachten: nichts gespeichert; versuch es in einer Minute noch mal.`;
    }
  },
  disconnected: (project) =>
    `${project} ist getrennt: sein Schlüssel ist gelöscht, fundbot beobachtet es nicht mehr.`,
  notConnected: (project, place) => `Dieser ${place} hat kein verbundenes Projekt „${project}“.`,
  place: (platform) => (platform === 'discord' ? 'Server' : 'Workspace'),
  listTitle: 'Projekte',
  ownField: (used, limit) => `Hier verbunden (${used} von ${limit})`,
  operatorField: 'Vom Betreiber',
  none: (connect) => `Noch keines: ein Admin verbindet eines mit ${connect}.`,
  connectedLine: (project, by, off) =>
    `${project} (von ${by})${off ? `: aus wegen fehlender Rechte: ${off}` : ''}`,
  overviewTitle: (place) => `fundbot in diesem ${place}`,
  overviewNone: (connect) => `Noch kein Projekt: ein Admin verbindet eines mit ${connect}.`,
  funding: (raised, goal) => `💰 ${raised} von ${goal}`,
  fundingUnknown: '💰 noch nicht gelesen',
  channels: (list) => `📣 ${list}`,
  noChannels: (subscribe) => `📣 noch kein Kanal (${subscribe})`,
  lastPoll: (age) => `🩺 zuletzt abgefragt ${age}`,
  neverPolled: '🩺 noch nicht abgefragt',
  keyProblem: (note) => `⚠️ ${note}`,
  cannotPost: (channel, problem, since) =>
    `⚠️ kann seit ${since} nicht in ${channel} posten (${problem}): seine Meldungen werden für einen Nachtrag gesammelt`,
  fromOperator: 'vom Betreiber',
  connectButton: 'Projekt verbinden',
  disconnectButton: 'Trennen',
};
