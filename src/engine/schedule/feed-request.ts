import type { EngineServices, RequestTag } from '../context/engine-services.js';
import type { ScheduledProject } from './schedule-slice.js';

/**
 * Every API request of the engine goes through here: the credential gate first
 * (Retry-After from the transport, the reserve kept for commands), then it is
 * counted for its feed (or for a command), then sent.
 */
export async function request<T>(
  ctx: EngineServices,
  rt: ScheduledProject,
  tag: RequestTag,
  send: () => Promise<T>,
): Promise<T> {
  const { api, clock } = ctx;
  rt.gate.check(
    clock.now(),
    api.budget(rt.config.key),
    tag === 'command' ? 'command' : 'poll',
    api.pausedUntil(rt.config.key),
  );
  rt.gate.sent();
  ctx.counters.requests[tag] += 1;
  return send();
}
