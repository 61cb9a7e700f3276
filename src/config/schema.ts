import { z } from 'zod';
import { DEFAULT_HEDGE_AFTER_MS } from '../api/index.js';
import { defaultMilestones } from '../domain/milestones.js';
import { logFormats, logLevels } from '../ops/logger.js';

/**
 * The schema of `fundbot.config.json`. Every object is strict, so a typo
 * (`"enabeld": true`) is an error instead of a silently ignored field. The file
 * holds no secrets: projects name the environment variable with their API key,
 * and chat platform tokens come from fixed variables (see load-config.ts).
 *
 * Defaults live here and nowhere else; docs/configuration.md lists them.
 */

export const DEFAULT_STORE_URL = 'sqlite://./data/fundbot.sqlite';
/** The engine's milestones: the one list, so a config default cannot drift from what the engine announces. */
export const DEFAULT_MILESTONES: readonly number[] = defaultMilestones;

const locale = z.enum(['en', 'de']);

/** True when the runtime's time zone database knows `timeZone` (IANA name such as Europe/Berlin). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const port = z.number().int().min(1).max(65_535);

const apiSchema = z.strictObject({
  /** Base URL of the platform API. No default: fundbot never guesses where to send an API key. */
  baseUrl: z.string().optional(),
  /** Per-request timeout. */
  timeoutMs: z.number().int().min(1_000).max(120_000).default(10_000),
  /**
   * A GET unanswered after this long gets a copy (a second after as long again if the copy is
   * slow too), and the first answer wins (at most
   * 2 % of the requests plus 10 a minute; never from a key's last tenth of budget). 0: off.
   */
  hedgeAfterMs: z.number().int().min(0).max(60_000).default(DEFAULT_HEDGE_AFTER_MS),
  /**
   * Use a User API key (FUNDBOT_USER_KEY, or its _FILE twin) as a change signal when one is set.
   * `false` is the off switch: the key is then ignored even when set. No key: off either way.
   */
  userKey: z.boolean().default(true),
});

const storeSchema = z.strictObject({
  url: z.string().min(1).default(DEFAULT_STORE_URL),
  /** With a redis:// store: how long a replica's project lease lives without renewal (renewed every third). */
  leaseTtlMs: z.number().int().min(3_000).max(300_000).default(30_000),
});

const projectSchema = z.strictObject({
  /** The project's slug (`link_caption`), as in its URL. */
  linkCaption: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'must be the project slug from its URL (letters, digits, - and _)'),
  /** Name of the environment variable holding this project's Project API key. */
  apiKeyEnv: z
    .string()
    .regex(
      /^[A-Z_][A-Z0-9_]*$/,
      'must be an environment variable name in upper case, e.g. SOLAR_KIOSK_API_KEY',
    ),
  /** Percentages of the funding goal announced when crossed. */
  milestones: z
    .array(z.number().positive().max(10_000))
    .max(50)
    .refine((list) => new Set(list).size === list.length, 'must not repeat a percentage')
    .transform((list) => [...list].sort((a, b) => a - b))
    .default([...DEFAULT_MILESTONES]),
});

const discordSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** Discord's REST base without the version (default https://discord.com/api): an egress proxy or a local fake. */
  apiUrl: z.string().optional(),
  /**
   * gateway: one WebSocket session receives the commands (on a redis:// store only the holder of the "gateway"
   * lease opens it); http: Discord posts signed interactions to `port` (any replica answers, no gateway).
   */
  mode: z.enum(['gateway', 'http']).default('gateway'),
  /** Developer Portal → General Information → Application ID. `DISCORD_APPLICATION_ID` overrides it. */
  applicationId: z.string().optional(),
  /** Developer Portal → General Information → Public Key (64 hex; not a secret). `DISCORD_PUBLIC_KEY` overrides it. */
  publicKey: z.string().optional(),
  /** Port of the interactions endpoint (http mode only), on all interfaces; its own port, not the ops server's. */
  port: port.default(3001),
});

const slackSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** Slack's Web API base (default https://slack.com/api/): Slack for government, an egress proxy, a local fake. */
  apiUrl: z.string().optional(),
  /** socket: outbound WebSocket (no public URL needed); http: Slack calls `port` (needs a public URL). */
  mode: z.enum(['socket', 'http']).default('socket'),
  /** Port of the Slack HTTP receiver (http mode only). */
  port: port.default(3000),
  /**
   * Basic Information → App Credentials → Client ID (not a secret). Set, Slack runs for many workspaces: the OAuth
   * install flow (`/slack/install`) with SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and FUNDBOT_ENCRYPTION_KEY.
   */
  clientId: z.string().optional(),
  /** Slack user ids (U…/W…) allowed to run admin commands besides workspace admins. */
  admins: z
    .array(
      z
        .string()
        .regex(
          /^[UW][A-Z0-9]{2,}$/,
          'must be a Slack user id such as U012ABCDEF (profile → ⋮ → Copy member ID)',
        ),
    )
    .default([]),
});

const digestSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Local time of day of the daily digest. */
  time: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a 24-hour time "HH:MM" such as "09:00"')
    .default('09:00'),
  timeZone: z
    .string()
    .refine(
      isValidTimeZone,
      'is not a time zone known to this runtime: use an IANA name such as "Europe/Berlin"',
    )
    .default('UTC'),
});

/** The goal-pace alerts and the roll-call (issue 32, items 4 and 5); each channel turns them on by command. */
const campaignSchema = z.strictObject({
  /** The recent pace is the funding of this many minutes (default a day). */
  paceWindowMinutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(24 * 60),
  /** Supports in the window below which "on track" is never said. */
  paceMinSupporters: z.number().int().min(1).max(1000).default(5),
  /** The weekday of the weekly roll-call (monthly ones fall on the 1st). */
  rollCallWeekday: z
    .enum(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'])
    .default('monday'),
  /** The local time of the roll-call, on each channel's clock. */
  rollCallTime: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a 24-hour time "HH:MM" such as "10:00"')
    .default('10:00'),
  /** Seconds between the checks (a divisor of 60). */
  checkEverySec: z
    .number()
    .int()
    .refine((n) => n >= 1 && 60 % n === 0, 'must divide 60: 1, 2, 5, 10, 15, 20, 30 or 60')
    .default(60),
});

const engineSchema = z.strictObject({
  /**
   * Percent of each API rate-limit window (day and minute) the poller leaves unused, for slash
   * commands and retries. The engine's planner takes a fraction: use `reserveFraction` of the
   * resolved config.
   */
  reservePct: z.number().min(0).max(90).default(15),
  /** More new supporters (or wall posts) than this in one poll are announced as one burst notice. */
  burstThreshold: z.number().int().min(1).max(1_000).default(10),
  /**
   * Flood guard of the list reader: when more than this share of the new-looking entries of one
   * poll is not explained by the list growing (the API reordered or re-keyed entries), the engine
   * re-baselines silently instead of announcing them.
   */
  floodRatio: z.number().gt(0).max(1).default(0.5),
  /**
   * Read a public project (status `started` on) without a credential while the per-IP budget
   * (1,000 a day) allows, leaving the key's budget to the lists. `false` always uses the key.
   */
  publicReads: z.boolean().default(true),
  /**
   * Polling requests a second the whole process sends at most, shared by its projects (each
   * key's own budget still applies). Binds only when many keys may spend fast, e.g. a fresh
   * start late in a UTC day; a normal day of 1,000 projects is about 100 a second. Unset: sized
   * from the keys' plans and the CPU, at least DEFAULT_MAX_REQUESTS_PER_SECOND (200), kept in
   * one place (src/engine/process-ceiling.ts).
   */
  maxRequestsPerSecond: z.number().min(0.1).max(10_000).optional(),
  /**
   * How long a feed (a refused key, a missing scope) must stay stopped before its subscribed channels are told,
   * so a short stop says nothing; the resume is said only after a said stop. The API out of reach waits at
   * least 10 minutes whatever this says.
   */
  feedHealthHoldSec: z.number().int().min(5).max(3_600).default(180),
});

const httpSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Port of the ops server (`/healthz`, `/metrics`). `PORT` overrides it. */
  port: port.default(9464),
  /** 127.0.0.1 by default: Docker's HEALTHCHECK runs inside the container; use 0.0.0.0 for scrapers and probes. */
  host: z.string().min(1).default('127.0.0.1'),
});

/**
 * Hosted fundbot (issue 24): workspace and server admins connect their own projects from chat
 * (`/fundbot connect`, Discord `/connect`); their keys are sealed with FUNDBOT_ENCRYPTION_KEY.
 */
const hostedSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** Projects one workspace (Slack) or server (Discord) may connect; the operator's configured ones do not count. */
  maxProjectsPerWorkspace: z.number().int().min(1).max(100).default(5),
});

/** The whole file. Sections may be omitted; each then takes its defaults. */
export const configFileSchema = z.strictObject({
  api: apiSchema.prefault({}),
  store: storeSchema.prefault({}),
  /**
   * The https base under which Discord and Slack reach fundbot (a reverse proxy in front of discord.port and
   * slack.port). `FUNDBOT_PUBLIC_URL` overrides it. Used for the Slack OAuth redirect and printed by
   * `npm run commands:discord` as the Interactions Endpoint URL.
   */
  publicUrl: z.string().optional(),
  /** Default language of notices and replies. */
  locale: locale.default('en'),
  logLevel: z.enum(logLevels).default('info'),
  /** `pretty` for a person reading the log in a terminal; log tooling reads the default JSON lines. */
  logFormat: z.enum(logFormats).default('json'),
  projects: z.array(projectSchema).min(1, 'list at least one project to watch'),
  discord: discordSchema.prefault({}),
  slack: slackSchema.prefault({}),
  digest: digestSchema.prefault({}),
  campaign: campaignSchema.prefault({}),
  engine: engineSchema.prefault({}),
  http: httpSchema.prefault({}),
  hosted: hostedSchema.prefault({}),
});

/** The file after defaults are applied (no secrets, no environment overrides yet). */
export type ConfigFile = z.output<typeof configFileSchema>;
