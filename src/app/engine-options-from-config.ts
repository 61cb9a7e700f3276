import type { FundbotConfig } from '../config/index.js';
import type { EngineOptions } from '../engine/index.js';

/**
 * The engine's options as the config file sets them (section `engine`), the lease TTL on replicas, and a
 * caller's overrides (tests, benches) last.
 */
export function engineOptionsFromConfig(
  engine: FundbotConfig['engine'],
  replicas: { readonly ttlMs: number } | undefined,
  overrides: EngineOptions = {},
): EngineOptions {
  return {
    ...(replicas ? { leaseTtlMs: replicas.ttlMs } : {}),
    reserveShare: engine.reserveFraction,
    burstThreshold: engine.burstThreshold,
    floodRatio: engine.floodRatio,
    publicReads: engine.publicReads,
    feedHealthHoldMs: engine.feedHealthHoldSec * 1000,
    ...(engine.maxRequestsPerSecond !== undefined
      ? { maxRequestsPerSecond: engine.maxRequestsPerSecond }
      : {}),
    ...overrides,
  };
}
