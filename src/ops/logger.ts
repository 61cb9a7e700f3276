import { createRequire } from 'node:module';
import { type DestinationStream, pino } from 'pino';
import type { Logger } from '../domain/logger.js';
import { scrubSecrets } from '../lib/scrub-secrets.js';
import { cutBeforeSecrets, withCutMark } from '../lib/secret-redactor.js';

export type { LogFn, Logger } from '../domain/logger.js';

/** Levels accepted in the config file and in `LOG_LEVEL`. */
export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Log line formats: `json` (the default, for log tooling) or `pretty` (readable in a terminal). */
export const logFormats = ['json', 'pretty'] as const;
export type LogFormat = (typeof logFormats)[number];

/**
 * Field names whose value is always replaced, whatever it looks like: headers and
 * option objects carry secrets that have no recognisable shape (a Slack signing
 * secret is 32 hex digits). pino's `redact` censors them before serialisation.
 */
export const redactedPaths: readonly string[] = [
  'authorization',
  'Authorization',
  'headers.authorization',
  'headers.Authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
  'headers.cookie',
  '*.headers.cookie',
  ...[
    'token',
    'botToken',
    'appToken',
    'signingSecret',
    'apiKey',
    'password',
    'secret',
    'clientSecret',
  ].flatMap((name) => [name, `*.${name}`]),
];

export interface CreateLoggerOptions {
  readonly level: LogLevel;
  /** Where JSON lines go; default: stdout (synchronous, so nothing is lost on exit). */
  readonly destination?: DestinationStream;
  /** Exact secret values without a recognisable shape (e.g. the Slack signing secret) to scrub as well. */
  readonly knownSecrets?: readonly string[];
  /** Fields on every record, e.g. `{ service: 'fundbot' }`. */
  readonly base?: Record<string, unknown>;
  /** `pretty`: readable lines for a terminal instead of JSON (default `json`). See {@link prettyLines}. */
  readonly format?: LogFormat;
  /** Colours in the `pretty` format (default: when the terminal supports them; NO_COLOR and FORCE_COLOR are honoured). */
  readonly colorize?: boolean;
}

/**
 * A pino logger writing structured JSON, with secrets removed twice:
 * 1. `redact` censors known secret-carrying fields (authorization headers, tokens, keys);
 * 2. every finished JSON line is scrubbed of anything shaped like a credential
 *    (`svc_proj_…`, `svc_user_…`, `xox?-…`, `xapp-…`, Discord tokens, `Bearer …`, URL passwords)
 *    and of the `knownSecrets`: message, nested fields, error messages, stacks and causes alike.
 *
 * The second step works on the serialised line rather than on the record so that
 * nothing escapes it: not pino's error serialiser, not a library's child
 * bindings, not a string nested ten levels deep.
 */
export function createLogger(options: CreateLoggerOptions): pino.Logger {
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  const knownSecrets = options.knownSecrets ?? [];
  const shown = options.format === 'pretty' ? prettyLines(options.colorize) : (line: string) => line;
  const scrubbing: DestinationStream = {
    write: (line: string) => destination.write(shown(scrubSecrets(withoutDuplicateKeys(line), knownSecrets))),
  };
  return pino(
    {
      level: options.level,
      base: options.base ?? { service: 'fundbot' },
      redact: { paths: [...redactedPaths], censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        // The level's name is easier to filter on in log tooling than pino's number.
        level: (label) => ({ level: label }),
      },
    },
    scrubbing,
  );
}

/**
 * JSON lines made readable (`[09:00:00.123] WARN: message` and the fields indented below) by
 * pino-pretty, pino's own formatter, used as a function (`prettyFactory`) on each finished line:
 * in process and synchronous like the JSON output, so nothing is lost on exit, and after the
 * secret scrubber, so it formats only what the JSON would have shown. Loaded only when chosen:
 * it and its dependencies cost about 0.1 s of CPU to load. For a person at a terminal; log
 * tooling reads the JSON.
 */
function prettyLines(colorize: boolean | undefined): (line: string) => string {
  const require = createRequire(import.meta.url);
  const { prettyFactory } = require('pino-pretty') as typeof import('pino-pretty');
  return prettyFactory({
    ...(colorize === undefined ? {} : { colorize }),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
    singleLine: false,
  });
}

const noop = () => {};

/** A logger that drops everything: for tests and tools that do not care. */
export const silentLogger: Logger = {
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  child: () => silentLogger,
};

/** A string field longer than this (a server's whole error page) is cut, so the line stays whole JSON. */
export const MAX_LOG_FIELD_CHARS = 8 * 1024;

/**
 * pino writes a field twice when the base, a child's bindings and the record share a
 * name (`version` in the base and in a message's fields); strict parsers such as
 * Elasticsearch reject such a line. Re-serialising keeps the last value of each
 * name, as `JSON.parse` does, and cuts string fields at {@link MAX_LOG_FIELD_CHARS}
 * (the scrubber cuts whole lines longer than its limit, which would break the JSON).
 * Costs one parse per line; logs are not a hot path.
 */
function withoutDuplicateKeys(line: string): string {
  try {
    return `${JSON.stringify(JSON.parse(line), cutLongStrings)}\n`;
  } catch {
    return line;
  }
}

function cutLongStrings(_key: string, value: unknown): unknown {
  if (typeof value !== 'string' || value.length <= MAX_LOG_FIELD_CHARS) return value;
  const kept = cutBeforeSecrets(value, MAX_LOG_FIELD_CHARS);
  return withCutMark(kept, value.length - kept.length);
}
