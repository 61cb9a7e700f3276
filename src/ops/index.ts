/** Operations: structured logging with secret scrubbing, metrics, health and metrics endpoint, shutdown. */

export { findSecretKind, REDACTED, scrubSecrets } from '../lib/scrub-secrets.js';
export { errorSummary } from './error-summary.js';
export {
  type GracefulShutdown,
  type GracefulShutdownOptions,
  installGracefulShutdown,
  type ShutdownStep,
  type SignalSource,
} from './graceful-shutdown.js';
export {
  createHealthMonitor,
  type HealthCheck,
  type HealthMonitor,
  type HealthMonitorOptions,
  type HealthReport,
  type PollObservation,
} from './health.js';
export {
  type CreateLoggerOptions,
  createLogger,
  type LogFn,
  type Logger,
  type LogLevel,
  logLevels,
  redactedPaths,
  silentLogger,
} from './logger.js';
export {
  type CreatedMetrics,
  createMetrics,
  type FundbotMetrics,
  type MetricHandles,
  noopMetrics,
  type Platform,
  type PolledFeed,
  type PollResult,
} from './metrics.js';
export { type OpsServer, type OpsServerOptions, startOpsServer } from './ops-server.js';
export { type StoreMarker, startStoreMarker, storeMarkerPath } from './store-marker.js';
export {
  createStoreWatch,
  describeStoreTarget,
  type StoreWatch,
  type StoreWatchOptions,
  startStoreProbe,
} from './store-watch.js';
