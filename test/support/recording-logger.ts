import type { Logger } from '../../src/domain/logger.js';

/** One record a {@link recordingLogger} kept. */
export interface RecordedLog {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly fields: object | undefined;
  readonly msg: string | undefined;
}

/** A domain Logger that keeps every record (children share the list), for assertions on what was logged. */
export function recordingLogger(records: RecordedLog[] = []): Logger & { records: RecordedLog[] } {
  const at =
    (level: RecordedLog['level']) =>
    (a: object | string, b?: string): void => {
      records.push(
        typeof a === 'string' ? { level, fields: undefined, msg: a } : { level, fields: a, msg: b },
      );
    };
  const logger: Logger & { records: RecordedLog[] } = {
    records,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  };
  return logger;
}
