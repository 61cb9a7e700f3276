import type { Logger } from '../../core/index.js';

/** The slice of the one {@link Logger} port the Discord adapter uses. */
export type DiscordAdapterLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

export { silentLogger } from '../../core/index.js';
