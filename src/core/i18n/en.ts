import { HELD_NOTICE_DAYS } from '../../domain/held-notices.js';
import { campaignEn } from './campaign-catalog.js';
import type { Catalog } from './catalog.js';
import { hostedEn } from './hosted-catalog.js';
import { notesEn } from './note-catalog.js';
import { noticeRulesEn } from './notice-rules-catalog.js';
import { plural } from './plural.js';
import { rewardStockEn } from './reward-stock-catalog.js';
import { traceEn } from './trace-catalog.js';

const listFormat = new Intl.ListFormat('en-US', { style: 'long', type: 'conjunction' });
const n = (count: number, one: string, other: string) => plural('en', count, { one, other });

/** English, the default catalog. */ /** What a switched-off feed's data is called in the "data is off" answer. */
const feedDataEn: Readonly<Record<string, string>> = {
  fundings: 'Supporter data',
  wall: 'Wall data',
  blog: 'Blog data',
  project: 'Project data',
  incentives: 'Reward data',
};

export const en: Catalog = {
  common: {
    andMore: (shown, more) => `${shown} and ${more} more`,
    list: (items) => listFormat.format(items),
    updatedAgo: (age) => `Updated ${age}`,
    staleFigures: (age, reason) => `Figures from ${age}: ${reason}`,
    unlimited: 'unlimited',
    soldOut: 'sold out',
    left: (remaining, total) => `${remaining} of ${total} left`,
    locked: 'locked',
    supportersOnly: 'supporters only',
    onlyYou: 'only you can see this',
    none: 'none',
    someone: 'a supporter',
    untitled: '(untitled)',
  },
  units: {
    seconds: (c) => n(c, `${c} second`, `${c} seconds`),
    minutes: (c) => n(c, `${c} minute`, `${c} minutes`),
    hours: (c) => n(c, `${c} hour`, `${c} hours`),
    days: (c) => n(c, `${c} day`, `${c} days`),
    moreThanAYear: 'more than a year',
  },
  projectStatus: {
    new: 'Draft (not public yet)',
    started: 'Start phase (collecting fans)',
    active: 'Funding phase',
    successful: 'Successfully funded',
    payoff: 'Paid out',
    unknown: (raw) => `“${raw}”`,
  },
  funding: {
    fieldFunding: 'Funding',
    fieldSupporters: 'Supporters',
    fieldModel: 'Funding model',
    fieldStatus: 'Project status',
    fieldPace: 'Pace',
    amountOfGoal: (funding, goal) => `${funding} of ${goal}`,
    noGoal: (funding) => `${funding} (no goal set)`,
    supporters: (c, formatted) => n(c, `${formatted} supporter`, `${formatted} supporters`),
    allOrNothingReached: 'All-or-nothing: goal reached ✅',
    allOrNothingMissing: (missing) => `All-or-nothing: ${missing} still needed to reach the goal`,
    flexible: 'Flexible funding: every support counts',
    paceGoal: (duration, perDay) =>
      `At this pace the goal is reached in ${duration} (≈ ${perDay} per day over the last 24 hours)`,
    paceMilestone: (percent, duration, perDay) =>
      `At this pace ${percent} of the goal is reached in ${duration} (≈ ${perDay} per day)`,
    paceRateOnly: (perDay) => `≈ ${perDay} per day over the last 24 hours`,
    paceNone: (hours) => n(hours, 'No supports in the last hour', `No supports in the last ${hours} hours`),
    paceUnknown: 'Not enough history yet to tell the pace',
    supportLink: 'Support the project',
  },
  rewards: {
    title: (project) => `Rewards of ${project}`,
    noneVisible: 'No rewards are on offer right now.',
    lockedMissing: (missing) => `🔒 locked: unlocks when ${missing} more is funded`,
    lockedUntilGoal: '🔒 locked until the funding goal is reached',
    andMore: (c, command) =>
      n(c, `…and 1 more reward: use ${command} <id>`, `…and ${c} more rewards: use ${command} <id>`),
    idLine: (id) => `ID ${id}`,
    fieldPrice: 'Price',
    fieldStock: 'Stock',
    fieldState: 'State',
    available: 'available',
    freeText: 'free text',
    openReward: 'Open the reward',
    notFound: (id, project, command) => `There is no reward ${id} in ${project}. ${command} lists the ids.`,
  },
  supporters: {
    title: (project) => `Latest supporters of ${project}`,
    none: 'No public supporters yet.',
    line: (name, age) => `• ${name} (${age})`,
  },
  blog: {
    title: (project) => `Blog of ${project}`,
    none: 'No blog posts yet.',
    story: 'Story',
    text: 'Blog post',
    meta: (type, date, minutes) => `${type} · ${date} · ${n(minutes, '1 min read', `${minutes} min read`)}`,
    teaserUnavailable: 'Only supporters can read this post.',
  },
  subscriptions: {
    subscribed: (project, kinds) => `✅ This channel now gets ${kinds} notices of ${project}.`,
    notReadYet: (project, status) =>
      `⚠️ fundbot has not read the supporters of ${project} yet, so notices start from its first read, not from now: ${status} says why (a refused key, a missing scope).`,
    unsubscribed: (project, kinds) => `This channel no longer gets ${kinds} notices of ${project}.`,
    remaining: (kinds) => `Still subscribed: ${kinds}.`,
    nothingLeft: 'No notices of it are left in this channel.',
    notSubscribed: (project) => `This channel is not subscribed to ${project}.`,
    title: 'Subscriptions of this channel',
    none: (command) => `This channel has no subscriptions. An admin can add one with ${command} <project>.`,
    line: (project, kinds) => `• ${project}: ${kinds}`,
    invalidKinds: (invalid, valid) => `Unknown notice kind ${invalid}. Valid kinds: ${valid}.`,
    notMember: (platform) =>
      platform === 'slack'
        ? 'fundbot is not a member of this channel, so it could not post notices here. Invite it with /invite @fundbot, then subscribe again.'
        : 'fundbot cannot see this channel. Give the bot’s role View Channel and Send Messages in this channel, then subscribe again.',
    noPermission: (platform, missing) =>
      platform === 'slack'
        ? 'Slack does not let fundbot post in this channel. A workspace admin can allow it in the channel’s posting settings, then subscribe again.'
        : `fundbot may not post in this channel. Give the bot’s role ${missing ?? 'Send Messages'} in this channel’s permissions (Edit Channel → Permissions), then subscribe again.`,
    archived:
      'This channel is archived, so fundbot cannot post here. Unarchive it or subscribe another channel.',
    accessUnknown:
      'fundbot could not check whether it can post in this channel, so nothing was subscribed. Try again in a minute; if it keeps failing, the bot’s operator should look at its logs.',
    permissionNames: {
      'view-channel': 'View Channel',
      'send-messages': 'Send Messages',
      'send-messages-in-threads': 'Send Messages in Threads',
      'embed-links': 'Embed Links',
      'attach-files': 'Attach Files',
    },
  },
  access: {
    problem: (problem, platform, missing) => {
      switch (problem) {
        case 'not-member':
          return platform === 'slack'
            ? 'fundbot is not in this channel: invite it with /invite @fundbot.'
            : 'fundbot cannot see this channel: give its role View Channel here.';
        case 'no-permission':
          return platform === 'slack'
            ? 'a workspace rule forbids fundbot to post here: a workspace admin can allow it in the channel’s settings.'
            : `fundbot may not post here: give its role ${missing ?? 'Send Messages'} in this channel.`;
        case 'archived':
          return 'the channel is archived: unarchive it, or unsubscribe.';
        case 'gone':
          return 'the channel is gone or fundbot was removed: unsubscribe, or invite fundbot back.';
        case 'token-revoked':
          return 'the platform refused fundbot’s token: the app must be reinstalled.';
        case 'unknown':
          return 'the platform refuses fundbot’s posts here.';
      }
    },
    cannotPost: (problem, since) =>
      `⚠️ fundbot cannot post here since ${since}: ${problem} Notices are held (up to ${HELD_NOTICE_DAYS} days) and posted as one catch-up as soon as it can.`,
  },
  pacing: {
    mode: (mode, minutes) =>
      ({
        auto: 'auto',
        live: 'live',
        batched: `batched every ${minutes} min`,
        hourly: 'hourly',
        digest: 'digest only',
      })[mode],
    explain: (mode, minutes) =>
      ({
        auto: 'each notice at once while the channel is calm (fewer than 4 messages of the kind in the last hour), then one message per 10 minutes with everything in between',
        live: 'each notice at once',
        batched: `one message every ${minutes} minutes with everything in between`,
        hourly: 'one message an hour with everything in between',
        digest: 'not posted here; the daily digest counts them',
      })[mode],
    set: (kinds, mode) => `✅ ${kinds} in this channel: ${mode}.`,
    kindWithMode: (kind, mode) => `${kind} (${mode})`,
    quietSet: (range) =>
      `✅ Quiet hours ${range}: notices are held then and posted as one summary per kind when they end.`,
    quietCleared: '✅ Quiet hours are off: notices follow their pacing at any hour.',
    quietLine: (range) => `Quiet hours: ${range}`,
    quietNone: 'Quiet hours: off',
    minutesOnlyForBatched: (given, usage) =>
      `Minutes apply to batched only (you gave ${given}). Type for example: ${usage}`,
    invalidMinutes: (given, min, max) => `"${given}" minutes is not possible: give ${min} to ${max}.`,
    invalidHours: (given, example) =>
      `"${given}" is not a time range. Type the start and end as HH:MM-HH:MM, for example ${example}, or off.`,
    invalidTimeZone: (given, example) =>
      `"${given}" is not a time zone fundbot knows. Use a name like Europe/Berlin or America/New_York, for example ${example}.`,
    emptyQuiet: (example) => `Quiet hours need a start and an end, for example ${example}.`,
    notConfigured: 'Pacing is not set up in this fundbot instance; ask its operator.',
  },
  language: {
    setChannel: 'This channel now speaks English.',
    setWorkspace: 'The whole server/workspace now speaks English (channels with their own setting keep it).',
    invalidLocale: (given, valid) => `"${given}" is not a language fundbot speaks. Choose one of: ${valid}.`,
    invalidScope: (given) => `"${given}" is not a scope: use channel or workspace.`,
  },
  status: {
    title: (project) => `fundbot status for ${project}`,
    feedOk: (age, interval) => `last poll ${age} (every ${interval})`,
    feedNever: 'no successful poll yet',
    within: (window) => `within the last ${window}`,
    feedDisabled: (reason) => `disabled: ${reason}`,
    fieldBudget: 'API budget today',
    budget: (remaining, limit) => `${remaining} of ${limit} requests left`,
    budgetReset: (at) => `resets ${at}`,
    budgetUnknown: 'unknown until the first answer',
    fieldErrors: 'Recent errors',
    noErrors: 'none',
    fieldOperation: 'Operation',
    paused: (since, reason, fix) =>
      `Polling paused since ${since}: ${reason}. ${fix === 'connect' ? 'An admin connects the project again with a Project API key of this project (the connect command)' : "The operator must replace this project's API key"}; a new key is tried at once, and polling resumes by itself when the platform accepts the key again.`,
    storeFailing: (detail) =>
      `The store does not answer (${detail}): new notices wait until it answers again.`,
    storeEmptied: (detail) => `The store was found empty (operator action needed): ${detail}.`,
    apiDrift: (detail) => `The platform's API changed: ${detail}`,
    pollingCeiling: (detail) =>
      `Feeds are read more slowly than the project's API plan allows: this fundbot process polls as fast as it may (${detail}). The operator can add a replica.`,
    version: (version) => `fundbot ${version}`,
    feedNames: {
      project: 'Project',
      incentives: 'Rewards',
      fundings: 'Supporters',
      wall: 'Wall',
      blog: 'Blog',
    },
  },
  help: {
    title: 'What fundbot can do',
    adminOnly: '(admins)',
    footer: '[ ] marks an optional value, < > a required one.',
  },
  errors: {
    title: 'That did not work',
    needAdmin: (platform) =>
      platform === 'slack'
        ? 'Only workspace admins can do this. Ask an admin of this workspace.'
        : platform === 'discord'
          ? 'You need the Manage Server permission for this. Ask a server admin.'
          : 'Only an administrator can do this.',
    unknownProject: (given, watched) => `fundbot does not watch "${given}". Watched projects: ${watched}.`,
    noWatchedProjects: 'fundbot watches no project yet: set one up in the configuration (FUNDBOT_PROJECTS).',
    whichProject: (choices) => `Which project? Add one of: ${choices}.`,
    platformDown: 'The crowdfunding platform is not answering right now; try again in a minute.',
    rateLimited: 'fundbot has used up its API budget for the moment; try again in a minute.',
    notPermitted:
      "fundbot's API key may not read this. An admin should check the key's scopes (see /status).",
    feedOff: (feed, scope) =>
      `${feedDataEn[feed] ?? 'This data'} is off for this project: its API key lacks ${scope}. An admin can add that scope to the key.`,
    projectPaused:
      'fundbot has paused this project: the platform rejects its API key. An admin must replace the key (project administration → API keys).',
    projectNotFound: (project) => `The platform does not know the project "${project}" (or hides it).`,
    digestNotConfigured: 'The daily digest is not configured on this bot.',
    chartNotConfigured: 'The funding chart is not available on this bot.',
    unknownCommand: (name, help) => `There is no command "${name}". Try ${help}.`,
    useSlackCommand: (typed, usage) =>
      `On Slack, fundbot has one command: instead of ${typed}, type ${usage}`,
    unknownSubcommand: (word, list, help) =>
      `fundbot has no subcommand "${word}". The subcommands are: ${list}. ${help} explains each.`,
    internal: 'Something went wrong on fundbot’s side; try again in a minute.',
    storeDown:
      'The store is down; nothing is lost. fundbot could not read or save this right now: try again in a few minutes (the operator sees why in /healthz and the log).',
    notInstalled: (installUrl) =>
      `fundbot is not installed in this workspace: ask a workspace admin to install it${installUrl ? ` at ${installUrl}` : ' (the operator has the install link)'}, then try again.`,
    missingOption: (option, usage) => `Missing ${option}. Usage: ${usage}`,
    invalidInteger: (option, given) => `${option} must be a whole number, not "${given}".`,
    invalidBoolean: (option, given) => `${option} must be yes or no, not "${given}".`,
    invalidChoice: (option, given, valid) => `"${given}" is not a valid ${option}. Choose one of: ${valid}.`,
    tooManyArguments: (extra, usage) => `Too many values ("${extra}"). Usage: ${usage}`,
    unterminatedQuote: 'A quote is not closed.',
    notACommand: 'Commands start with a slash, for example /funding. Try /help.',
  },
  notices: {
    supporter: (name) => `🎉 New supporter: ${name}`,
    supporterCountNow: (c) => `Supporter count now ${c}`,
    total: (amount) => `Total ${amount}`,
    supporterBurst: (c, formatted) => n(c, '🎉 1 new supporter', `🎉 ${formatted} new supporters`),
    wallPost: (author) => `💬 New wall post by ${author}`,
    wallPostBurst: (c, formatted) => n(c, '💬 1 new wall post', `💬 ${formatted} new wall posts`),
    wallPostBurstBy: (authors) => `By ${authors}`,
    blogPost: (title) => `📝 New blog post: ${title}`,
    readPost: 'Read the post',
    fieldType: 'Type',
    milestone: (percent) => `🏁 ${percent} of the funding goal reached`,
    goalReached: '🎯 Funding goal reached!',
    goalReachedText: 'All-or-nothing goal reached: the project will be funded.',
    rewardSoldOut: (title) => `Sold out: ${title}`,
    rewardUnlocked: (title) => `🔓 Unlocked: ${title}`,
    rewardPrice: (price) => `Price ${price}`,
    projectStatus: (to) => `Project status: ${to}`,
    projectStatusChange: (from, to) => `Project status: ${from} → ${to}`,
    watching: (title) => `👀 fundbot is now watching ${title}`,
    footer: (project) => `Project ${project}`,
  },
  notes: notesEn,
  hosted: hostedEn,
  rewardStock: rewardStockEn,
  campaign: campaignEn,
  // Issue 32 item 2: the delivery trace.
  trace: traceEn,
  // Issue 32 item 6: pings and filters.
  noticeRules: noticeRulesEn,
};
