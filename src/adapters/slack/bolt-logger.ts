import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../../domain/logger.js';

/**
 * Bolt, the Web API client and the Socket Mode client log through this bridge into
 * fundbot's logger (which scrubs credentials from every line). Their debug output
 * includes whole payloads (response_url, user ids), so it is passed on only when
 * the level is explicitly set to debug.
 */
export function boltLogger(logger: Logger, level: LogLevel = LogLevel.INFO): BoltLogger {
  let current = level;
  let name = 'slack';
  const line = (parts: unknown[]) =>
    parts
      .map((part) =>
        part instanceof Error ? part.message : typeof part === 'string' ? part : JSON.stringify(part),
      )
      .join(' ');
  return {
    debug: (...msg: unknown[]) => {
      if (current === LogLevel.DEBUG) logger.debug({ component: name }, line(msg));
    },
    info: (...msg: unknown[]) => {
      if (current === LogLevel.DEBUG || current === LogLevel.INFO)
        logger.info({ component: name }, line(msg));
    },
    warn: (...msg: unknown[]) => {
      if (current !== LogLevel.ERROR) logger.warn({ component: name }, line(msg));
    },
    error: (...msg: unknown[]) => logger.error({ component: name }, line(msg)),
    setLevel: (next: LogLevel) => {
      current = next;
    },
    getLevel: () => current,
    setName: (next: string) => {
      name = next;
    },
  };
}

/** Warnings and errors to stderr: the default when the composition root passes no logger. */
export const stderrLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (a: object | string, b?: string) =>
    console.warn('[slack]', b ?? a, typeof a === 'object' && b ? a : ''),
  error: (a: object | string, b?: string) =>
    console.error('[slack]', b ?? a, typeof a === 'object' && b ? a : ''),
  child: () => stderrLogger,
};
