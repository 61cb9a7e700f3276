/** One log method: a message, or structured fields with an optional message (pino's calling convention). */
export interface LogFn {
  (msg: string): void;
  (obj: object, msg?: string): void;
}

/**
 * The one logger port every module accepts. Narrow on purpose: modules depend on
 * this interface, not on pino, so tests pass a recording fake and the composition
 * root decides the implementation (src/ops/logger.ts builds the pino one).
 */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  /** A logger that adds `bindings` (e.g. `{ component: 'poller', project }`) to every record. */
  child(bindings: Record<string, unknown>): Logger;
}

/** Logs nothing: the default where a caller passes no logger. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silentLogger;
  },
};

/** The slice of the {@link Logger} that reports problems (secret-free details only: error names, codes, ids). */
export type WarningLogger = Pick<Logger, 'warn' | 'error'>;
