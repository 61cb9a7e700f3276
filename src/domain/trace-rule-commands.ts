/**
 * The command definitions of issue 32's delivery trace (item 2) and pings and filters (item 6), kept apart from
 * command-definitions.ts (which lists them with the others) so that file stays under 400 lines. Plain constants:
 * command-definitions.ts checks them against its CommandDefinition type where it lists them.
 */
import { noticeKinds } from './events.js';

/** /notices and /why <name>: the delivery trace of this channel (issue 32, item 2). */
export const traceCommands = [
  {
    name: 'notices',
    description: {
      en: "This channel's last 20 notices and what happened to each (posted, held, in doubt…)",
      de: 'Die letzten 20 Hinweise hier und was mit jedem geschah (gepostet, zurückgehalten, unklar…)',
    },
    options: [],
    admin: false,
  },
  {
    name: 'why',
    description: {
      en: 'What happened to one supporter in this channel: which notice, when seen, posted or why not',
      de: 'Was mit einer Unterstützung hier geschah: welcher Hinweis, wann gesehen, gepostet oder warum nicht',
    },
    options: [
      {
        name: 'name',
        description: {
          en: 'The supporter as the notices show them',
          de: 'Der Name, wie ihn die Hinweise zeigen',
        },
        type: 'string',
        required: true,
        rest: true,
      },
    ],
    admin: false,
  },
] as const;

/** /ping and /filter: who is pinged on which notices, which wall posts and milestones are told (issue 32, item 6). */
export const ruleCommands = [
  {
    name: 'ping',
    description: {
      en: 'Mention a role (Discord) or user group (Slack) on chosen notice kinds only, or off',
      de: 'Eine Rolle (Discord) oder Benutzergruppe (Slack) nur bei gewählten Arten erwähnen, oder off',
    },
    options: [
      {
        name: 'target',
        description: {
          en: 'The role (@role) or user group ID (S…), or off',
          de: 'Die Rolle (@Rolle) oder Gruppen-ID (S…), oder off',
        },
        type: 'string',
        required: true,
      },
      {
        name: 'kinds',
        description: {
          en: `Kinds that ping: ${noticeKinds.join(' ')} (default: milestones)`,
          de: `Arten mit Erwähnung: ${noticeKinds.join(' ')} (Standard: milestones)`,
        },
        type: 'string',
        required: false,
        rest: true,
      },
    ],
    admin: true,
  },
  {
    name: 'filter',
    description: {
      en: 'Filter wall posts by keywords (allow/deny) and milestones by level, or off',
      de: 'Pinnwand-Einträge nach Wörtern (allow/deny) und Meilensteine nach Stufe filtern, oder off',
    },
    options: [
      {
        name: 'kind',
        description: { en: 'wall or milestones', de: 'wall oder milestones' },
        type: 'string',
        required: true,
        choices: [
          { name: 'wall', value: 'wall' },
          { name: 'milestones', value: 'milestones' },
        ],
      },
      {
        name: 'rule',
        description: {
          en: 'allow <words…>, deny <words…>, levels (50 100), or off',
          de: 'allow <Wörter…>, deny <Wörter…>, Stufen (50 100) oder off',
        },
        type: 'string',
        required: true,
        rest: true,
      },
    ],
    admin: true,
  },
] as const;
