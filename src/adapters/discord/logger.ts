import type { Logger } from '../../domain/logger.js';

/** The slice of the one {@link Logger} port the Discord adapter uses. */
export type DiscordAdapterLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

export { silentLogger } from '../../domain/logger.js';
