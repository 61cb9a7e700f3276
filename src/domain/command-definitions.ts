/**
 * The one definition of every slash command. The Discord registration
 * (`npm run commands:discord`), the Slack app manifest (`npm run commands:slack`),
 * the console adapter, the core's argument parser and /help are all generated from it.
 *
 * Discord and the console get one slash command per definition (`/funding`). Slack
 * gets ONE command, {@link slackCommand} (`/fundbot funding`): every app in a
 * workspace shares Slack's one namespace, Slack reserves some names (/status), and
 * apps with many commands use one command with subcommands (`/github subscribe …`).
 */
import { deadlineCommandDefinition, rollCallCommandDefinition } from './campaign-command-definitions.js';
import { noticeKinds } from './events.js';
import { batchMinutesRange, pacedKinds, pacingModes } from './pacing-modes.js';
import { lowStockMaxThreshold, lowStockMinThreshold } from './reward-stock.js';
import { ruleCommands, traceCommands } from './trace-rule-commands.js';

export type OptionType = 'string' | 'integer' | 'boolean';

export interface OptionDefinition {
  readonly name: string;
  readonly description: LocalizedText;
  readonly type: OptionType;
  readonly required: boolean;
  /** Values are suggested from the watched projects. */
  readonly autocomplete?: 'project';
  readonly choices?: readonly { readonly name: string; readonly value: string }[];
  /** Takes the rest of the text on Slack and in the console (e.g. a list of notice kinds). */
  readonly rest?: boolean;
}

export interface CommandDefinition {
  /** Name on Discord and in the console; the subcommand on Slack (`/fundbot <name>`). */
  readonly name: string;
  readonly description: LocalizedText;
  readonly options: readonly OptionDefinition[];
  /** Only users who may manage the server or workspace (checked again server-side). */
  readonly admin: boolean;
}

export interface LocalizedText {
  readonly en: string;
  readonly de: string;
}

const projectOption = (required: boolean): OptionDefinition => ({
  name: 'project',
  description: { en: 'Project (link caption)', de: 'Projekt (Link-Kürzel)' },
  type: 'string',
  required,
  autocomplete: 'project',
});

const kindsOption: OptionDefinition = {
  name: 'kinds',
  description: {
    en: `Notice kinds, space separated: ${noticeKinds.join(' ')} (default: all)`,
    de: `Arten, durch Leerzeichen getrennt: ${noticeKinds.join(' ')} (Standard: alle)`,
  },
  type: 'string',
  required: false,
  rest: true,
};

/** /thread on|off: this channel's supporter notices in one thread a day (issue 11, item 2). */
const threadCommand: CommandDefinition = {
  name: 'thread',
  description: {
    en: 'Supporter notices in one thread a day, under one message with the running total',
    de: 'Unterstützungen in einem Thread pro Tag, unter einer Nachricht mit dem laufenden Stand',
  },
  options: [
    {
      name: 'mode',
      description: { en: 'on or off', de: 'an (on) oder aus (off)' },
      type: 'string',
      required: true,
      choices: [
        { name: 'on', value: 'on' },
        { name: 'off', value: 'off' },
      ],
    },
  ],
  admin: true,
};

/** /lowstock <n>|off: "last n left" notices in this channel (issue 32, item 3). */
const lowStockCommand: CommandDefinition = {
  name: 'lowstock',
  description: {
    en: 'Say here once when a reward is down to this many left ("last 5 left"), or off',
    de: 'Hier einmal melden, wenn ein Dankeschön nur noch so oft übrig ist („nur noch 5“), oder off',
  },
  options: [
    {
      name: 'threshold',
      description: {
        en: `A count from ${lowStockMinThreshold} to ${lowStockMaxThreshold}, or off (the default)`,
        de: `Eine Anzahl von ${lowStockMinThreshold} bis ${lowStockMaxThreshold} oder off (Standard)`,
      },
      type: 'string',
      required: true,
    },
  ],
  admin: true,
};

export const commandDefinitions: readonly CommandDefinition[] = [
  {
    name: 'funding',
    description: {
      en: 'Where the campaign stands: funding, goal, supporters, pace',
      de: 'Stand der Kampagne: Finanzierung, Ziel, Unterstützer, Tempo',
    },
    options: [projectOption(false)],
    admin: false,
  },
  {
    name: 'rewards',
    description: {
      en: 'The rewards on offer, with stock and unlock state',
      de: 'Die angebotenen Dankeschöns mit Bestand und Freischaltung',
    },
    options: [projectOption(false)],
    admin: false,
  },
  {
    name: 'reward',
    description: {
      en: 'One reward in detail, with its variations',
      de: 'Ein Dankeschön im Detail, mit Varianten',
    },
    options: [
      {
        name: 'id',
        description: { en: 'Reward id', de: 'ID des Dankeschöns' },
        type: 'integer',
        required: true,
      },
      projectOption(false),
    ],
    admin: false,
  },
  {
    name: 'supporters',
    description: { en: 'The latest public supporters', de: 'Die neuesten öffentlichen Unterstützer' },
    options: [projectOption(false)],
    admin: false,
  },
  {
    name: 'blog',
    description: { en: 'The latest blog posts', de: 'Die neuesten Blogbeiträge' },
    options: [projectOption(false)],
    admin: false,
  },
  {
    name: 'subscribe',
    description: {
      en: 'Post notices of a project in this channel',
      de: 'Benachrichtigungen eines Projekts in diesem Kanal posten',
    },
    options: [projectOption(true), kindsOption],
    admin: true,
  },
  {
    name: 'unsubscribe',
    description: {
      en: 'Stop notices of a project in this channel',
      de: 'Benachrichtigungen eines Projekts in diesem Kanal beenden',
    },
    options: [projectOption(true), kindsOption],
    admin: true,
  },
  {
    name: 'subscriptions',
    description: { en: 'What this channel is subscribed to', de: 'Was dieser Kanal abonniert hat' },
    options: [],
    admin: false,
  },
  threadCommand,
  lowStockCommand,
  ...traceCommands,
  ...ruleCommands,
  {
    name: 'pacing',
    description: {
      en: 'How often a kind of notice is posted here: auto, live, batched, hourly or digest only',
      de: 'Wie oft eine Art von Benachrichtigung hier kommt: auto, live, gesammelt, stündlich, nur Bericht',
    },
    options: [
      {
        name: 'kind',
        description: { en: 'Notice kind, or all', de: 'Art der Benachrichtigung, oder all' },
        type: 'string',
        required: true,
        choices: [...pacedKinds, 'all'].map((k) => ({ name: k, value: k })),
      },
      {
        name: 'mode',
        description: {
          en: 'auto (default), live, batched, hourly or digest (only in the daily digest)',
          de: 'auto (Standard), live, batched (gesammelt), hourly (stündlich) oder digest (nur Tagesbericht)',
        },
        type: 'string',
        required: true,
        choices: pacingModes.map((m) => ({ name: m, value: m })),
      },
      {
        name: 'minutes',
        description: {
          en: `batched only: minutes per message, ${batchMinutesRange.min}-${batchMinutesRange.max} (default 5)`,
          de: `nur batched: Minuten pro Nachricht, ${batchMinutesRange.min}-${batchMinutesRange.max} (Standard 5)`,
        },
        type: 'integer',
        required: false,
      },
    ],
    admin: true,
  },
  {
    name: 'quiet',
    description: {
      en: 'Quiet hours here: notices are held and posted as one summary when they end',
      de: 'Ruhezeit hier: Benachrichtigungen werden gesammelt und danach als eine Nachricht gepostet',
    },
    options: [
      {
        name: 'hours',
        description: { en: 'From-to, e.g. 22:00-07:00; or off', de: 'Von-bis, z. B. 22:00-07:00; oder off' },
        type: 'string',
        required: true,
      },
      {
        name: 'timezone',
        description: {
          en: 'Time zone of those hours, e.g. Europe/Berlin (default UTC)',
          de: 'Zeitzone dieser Uhrzeiten, z. B. Europe/Berlin (Standard UTC)',
        },
        type: 'string',
        required: false,
      },
    ],
    admin: true,
  },
  // Issue 32, items 4 and 5: the goal-pace alerts' end date and the roll-call.
  { ...deadlineCommandDefinition, options: [...deadlineCommandDefinition.options, projectOption(false)] },
  rollCallCommandDefinition,
  {
    name: 'chart',
    description: {
      en: 'Funding chart: curve, milestones, trend to the goal, supporters per day',
      de: 'Finanzierungsdiagramm: Verlauf, Meilensteine, Trend zum Ziel, Unterstützer*innen pro Tag',
    },
    options: [projectOption(false)],
    admin: false,
  },
  {
    name: 'digest',
    description: { en: "Preview today's digest", de: 'Vorschau der heutigen Zusammenfassung' },
    options: [projectOption(false)],
    admin: false,
  },
  {
    name: 'language',
    description: {
      en: 'Set the language of this channel (en, de)',
      de: 'Sprache dieses Kanals festlegen (en, de)',
    },
    options: [
      {
        name: 'locale',
        description: { en: 'Language', de: 'Sprache' },
        type: 'string',
        required: true,
        choices: [
          { name: 'English', value: 'en' },
          { name: 'Deutsch', value: 'de' },
        ],
      },
      {
        name: 'scope',
        description: {
          en: 'This channel or the whole server/workspace',
          de: 'Dieser Kanal oder der ganze Server/Workspace',
        },
        type: 'string',
        required: false,
        choices: [
          { name: 'channel', value: 'channel' },
          { name: 'workspace', value: 'workspace' },
        ],
      },
    ],
    admin: true,
  },
  {
    name: 'status',
    description: {
      en: 'Bot health: last polls, API budget, recent errors',
      de: 'Bot-Zustand: letzte Abfragen, API-Budget, Fehler',
    },
    options: [projectOption(false)],
    admin: false,
  },
  // Hosted fundbot (issue 24). /connect takes no option: the key is typed into a private form, never a command.
  {
    name: 'connect',
    description: {
      en: 'Connect a project with its API key (a private form), or replace its key',
      de: 'Ein Projekt mit seinem API-Schlüssel verbinden (privates Formular) oder den Schlüssel ersetzen',
    },
    options: [],
    admin: true,
  },
  {
    name: 'disconnect',
    description: {
      en: 'Disconnect a project this workspace connected (its key is deleted)',
      de: 'Ein hier verbundenes Projekt trennen (sein Schlüssel wird gelöscht)',
    },
    options: [projectOption(true)],
    admin: true,
  },
  {
    name: 'projects',
    description: {
      en: 'The projects this workspace can use',
      de: 'Die Projekte, die dieser Workspace nutzen kann',
    },
    options: [],
    admin: false,
  },
  {
    name: 'help',
    description: { en: 'What fundbot can do', de: 'Was fundbot kann' },
    options: [],
    admin: false,
  },
];

/** The one Slack slash command; the definitions above are its subcommands. */
export const slackCommand = {
  name: 'fundbot',
  description: {
    en: 'Campaign figures, notices and the daily digest: /fundbot help lists the subcommands',
    de: 'Kampagnenzahlen, Benachrichtigungen und die Tageszusammenfassung: /fundbot help zeigt alles',
  },
} as const satisfies { readonly name: string; readonly description: LocalizedText };

/** The subcommand `/fundbot` alone runs on Slack. */
export const slackDefaultSubcommand = 'help';

export function findCommand(name: string): CommandDefinition | undefined {
  return commandDefinitions.find((c) => c.name === name);
}
