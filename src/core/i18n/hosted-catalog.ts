import type { ConnectRefusal } from '../hosted-projects.js';

/** Words of hosted fundbot (issue 24): /connect, /disconnect, /projects and the connect form. */
export interface HostedCatalog {
  readonly off: string;
  readonly formTitle: string;
  /** Shown where a platform cannot open the form. */
  readonly formOpened: string;
  readonly projectLabel: string;
  readonly projectHint: string;
  readonly keyLabel: string;
  readonly keyHint: string;
  readonly submit: string;
  /** `off`: the feeds a missing scope turns off, listed; `subscribe`: how to subscribe a channel. */
  readonly connected: (project: string, off: string | undefined, subscribe: string) => string;
  readonly rotated: (project: string, off: string | undefined) => string;
  readonly refused: (reason: ConnectRefusal, project: string, limit: number) => string;
  readonly disconnected: (project: string) => string;
  readonly notConnected: (project: string) => string;
  readonly listTitle: string;
  readonly ownField: (used: number, limit: number) => string;
  readonly operatorField: string;
  readonly none: (connect: string) => string;
  readonly connectedLine: (project: string, by: string, off: string | undefined) => string;
  /** The workspace overview (Slack App Home, /status without a project). */
  readonly overviewTitle: string;
  readonly overviewNone: (connect: string) => string;
  readonly funding: (raised: string, goal: string) => string;
  readonly fundingUnknown: string;
  readonly channels: (list: string) => string;
  readonly noChannels: (subscribe: string) => string;
  readonly lastPoll: (age: string) => string;
  readonly neverPolled: string;
  readonly keyProblem: (note: string) => string;
  readonly fromOperator: string;
  readonly connectButton: string;
  readonly disconnectButton: string;
}

export const hostedEn: HostedCatalog = {
  off: 'Connecting projects from chat is not enabled on this fundbot: ask its operator (hosted.enabled).',
  formTitle: 'Connect a project',
  formOpened: 'Fill in the form fundbot opened: the key goes straight to fundbot, never into a channel.',
  projectLabel: 'Project (link caption)',
  projectHint: 'The slug from the project URL, e.g. solar-kiosk',
  keyLabel: 'Project API key',
  keyHint: 'svc_proj_… (project settings → API). Sent to fundbot only, stored encrypted.',
  submit: 'Connect',
  connected: (project, off, subscribe) =>
    `✅ ${project} is connected: fundbot watches it from now on. Subscribe a channel with ${subscribe}.${off ? ` The key lacks scopes, so these stay off: ${off}.` : ''}`,
  rotated: (project, off) =>
    `🔑 The key of ${project} was replaced; the old one is no longer used.${off ? ` The new key lacks scopes, so these stay off: ${off}.` : ''}`,
  refused: (reason, project, limit) => {
    switch (reason) {
      case 'bad-caption':
        return `"${project}" is not a project link caption (letters, digits, - and _ from its URL).`;
      case 'bad-key-format':
        return 'That is not a Project API key (it starts with svc_proj_): copy it again from the project settings.';
      case 'limit':
        return `This workspace has connected ${limit} projects, the most this fundbot allows: disconnect one first.`;
      case 'operator-project':
        return `${project} is watched by this fundbot's operator already: subscribe to it directly.`;
      case 'other-workspace':
        return `${project} is connected by another workspace: one workspace per project.`;
      case 'not-readable':
        return `${project} cannot be read with this key: the project was not found or its plan is below Pro.`;
      case 'key-rejected':
        return `The platform rejected this key for ${project} (invalid, deleted, or of another project): create a new Project API key and try again.`;
      case 'unverified':
        return 'The platform did not answer the key check: nothing was stored; try again in a minute.';
    }
  },
  disconnected: (project) =>
    `${project} is disconnected: its key is deleted and fundbot stopped watching it.`,
  notConnected: (project) => `This workspace has no connected project "${project}".`,
  listTitle: 'Projects',
  ownField: (used, limit) => `Connected here (${used} of ${limit})`,
  operatorField: "From fundbot's operator",
  none: (connect) => `None yet: an admin connects one with ${connect}.`,
  connectedLine: (project, by, off) =>
    `${project} (by ${by})${off ? `: off for missing scopes: ${off}` : ''}`,
  overviewTitle: 'fundbot in this workspace',
  overviewNone: (connect) => `No project yet: an admin connects one with ${connect}.`,
  funding: (raised, goal) => `💰 ${raised} of ${goal}`,
  fundingUnknown: '💰 not read yet',
  channels: (list) => `📣 ${list}`,
  noChannels: (subscribe) => `📣 no channel yet (${subscribe})`,
  lastPoll: (age) => `🩺 last poll ${age}`,
  neverPolled: '🩺 not polled yet',
  keyProblem: (note) => `⚠️ ${note}`,
  fromOperator: "from fundbot's operator",
  connectButton: 'Connect a project',
  disconnectButton: 'Disconnect',
};

export const hostedDe: HostedCatalog = {
  off: 'Projekte aus dem Chat zu verbinden ist bei diesem fundbot nicht eingeschaltet: frag den Betreiber (hosted.enabled).',
  formTitle: 'Projekt verbinden',
  formOpened:
    'Füll das Formular aus, das fundbot geöffnet hat: der Schlüssel geht direkt an fundbot, nie in einen Kanal.',
  projectLabel: 'Projekt (Link-Kürzel)',
  projectHint: 'Das Kürzel aus der Projekt-URL, z. B. solar-kiosk',
  keyLabel: 'Project-API-Schlüssel',
  keyHint: 'svc_proj_… (Projekteinstellungen → API). Geht nur an fundbot, wird verschlüsselt gespeichert.',
  submit: 'Verbinden',
  connected: (project, off, subscribe) =>
    `✅ ${project} ist verbunden: fundbot beobachtet es ab jetzt. Abonniere es in einem Kanal mit ${subscribe}.${off ? ` Dem Schlüssel fehlen Rechte, darum bleibt aus: ${off}.` : ''}`,
  rotated: (project, off) =>
    `🔑 Der Schlüssel von ${project} wurde ersetzt; der alte wird nicht mehr benutzt.${off ? ` Dem neuen Schlüssel fehlen Rechte, darum bleibt aus: ${off}.` : ''}`,
  refused: (reason, project, limit) => {
    switch (reason) {
      case 'bad-caption':
        return `„${project}“ ist kein Link-Kürzel eines Projekts (Buchstaben, Ziffern, - und _ aus der URL).`;
      case 'bad-key-format':
        return 'Das ist kein Project-API-Schlüssel (er beginnt mit svc_proj_): kopier ihn noch einmal aus den Projekteinstellungen.';
      case 'limit':
        return `Dieser Workspace hat schon ${limit} Projekte verbunden, mehr erlaubt dieser fundbot nicht: trenn zuerst eines.`;
      case 'operator-project':
        return `${project} beobachtet der Betreiber dieses fundbot schon: abonniere es direkt.`;
      case 'other-workspace':
        return `${project} ist schon mit einem anderen Workspace verbunden: ein Workspace pro Projekt.`;
      case 'not-readable':
        return `${project} lässt sich mit diesem Schlüssel nicht lesen: Projekt nicht gefunden oder Tarif unter Pro.`;
      case 'key-rejected':
        return `Die Plattform lehnt diesen Schlüssel für ${project} ab (ungültig, gelöscht oder von einem anderen Projekt): leg einen neuen an und versuch es noch mal.`;
      case 'unverified':
        return 'Die Plattform hat auf die Prüfung nicht geantwortet: nichts gespeichert; versuch es in einer Minute noch mal.';
    }
  },
  disconnected: (project) =>
    `${project} ist getrennt: sein Schlüssel ist gelöscht, fundbot beobachtet es nicht mehr.`,
  notConnected: (project) => `Dieser Workspace hat kein verbundenes Projekt „${project}“.`,
  listTitle: 'Projekte',
  ownField: (used, limit) => `Hier verbunden (${used} von ${limit})`,
  operatorField: 'Vom Betreiber',
  none: (connect) => `Noch keines: ein Admin verbindet eines mit ${connect}.`,
  connectedLine: (project, by, off) =>
    `${project} (von ${by})${off ? `: aus wegen fehlender Rechte: ${off}` : ''}`,
  overviewTitle: 'fundbot in diesem Workspace',
  overviewNone: (connect) => `Noch kein Projekt: ein Admin verbindet eines mit ${connect}.`,
  funding: (raised, goal) => `💰 ${raised} von ${goal}`,
  fundingUnknown: '💰 noch nicht gelesen',
  channels: (list) => `📣 ${list}`,
  noChannels: (subscribe) => `📣 noch kein Kanal (${subscribe})`,
  lastPoll: (age) => `🩺 zuletzt abgefragt ${age}`,
  neverPolled: '🩺 noch nicht abgefragt',
  keyProblem: (note) => `⚠️ ${note}`,
  fromOperator: 'vom Betreiber',
  connectButton: 'Projekt verbinden',
  disconnectButton: 'Trennen',
};
