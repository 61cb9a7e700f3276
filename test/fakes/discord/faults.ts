/**
 * Failures a test can switch on in the fake Discord: Discord's error answers per
 * channel, for interaction callbacks and for webhook edits, and queued faults for
 * Create Message (late answers, dropped connections, 429s, a global rate limit).
 */
import type { LateLandingMessageFault } from './late-landings.js';

export interface ChannelFault {
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

export const channelFaults = {
  unknownChannel: { status: 404, code: 10003, message: 'Unknown Channel' },
  missingAccess: { status: 403, code: 50001, message: 'Missing Access' },
  missingPermissions: { status: 403, code: 50013, message: 'Missing Permissions' },
  serverError: { status: 500, code: 0, message: 'Internal Server Error' },
  unknownInteraction: { status: 404, code: 10062, message: 'Unknown interaction' },
} as const satisfies Record<string, ChannelFault>;

/**
 * What Create Message does instead of a plain success, for a number of calls:
 * the message is created, then the answer is late (`slow`) or the connection is
 * dropped (`drop`: a crash around the post); or Discord refuses with a 429 asking
 * to wait (`rateLimit`, per route or `global`), with `Retry-After` and `retry_after`.
 */
export type MessageFault =
  | { readonly afterCreate: 'slow'; readonly delayMs: number }
  | { readonly afterCreate: 'drop' }
  | { readonly rateLimit: { readonly retryAfterMs: number; readonly global?: boolean } }
  /** Taken, but created and answered late, or the connection reset (late-landings.ts). */
  | LateLandingMessageFault;

/** The faults switched on now; the REST routes consult them on every call. */
export interface FaultSwitches {
  channelFault(channelId: string): ChannelFault | undefined;
  /** Sets a channel's fault; undefined heals it. */
  failChannel(channelId: string, fault: ChannelFault | undefined): void;
  /** Answers every interaction callback while set. */
  interactionCallbackFault: ChannelFault | undefined;
  /** Answers every PATCH of an interaction's message while set. */
  webhookEditFault: ChannelFault | undefined;
  /** Queues `fault` for the next `times` Create Message calls (any channel). */
  faultMessages(fault: MessageFault, times: number): void;
  /** Counts one Create Message call against the queue: the fault it gets, if any. */
  takeMessageFault(): MessageFault | undefined;
  /** Time left of a global rate limit (0 or less: none). */
  globalLimitRemainingMs(): number;
  startGlobalLimit(retryAfterMs: number): void;
}

export function createFaultSwitches(): FaultSwitches {
  const byChannel = new Map<string, ChannelFault>();
  const messageFaults: { fault: MessageFault; remaining: number }[] = [];
  let globalLimitUntil = 0;

  return {
    channelFault: (channelId) => byChannel.get(channelId),
    failChannel: (channelId, fault) => {
      if (fault) byChannel.set(channelId, fault);
      else byChannel.delete(channelId);
    },
    interactionCallbackFault: undefined,
    webhookEditFault: undefined,
    faultMessages: (fault, times) => {
      messageFaults.push({ fault, remaining: times });
    },
    takeMessageFault: () => {
      const injected = messageFaults[0];
      if (!injected) return undefined;
      injected.remaining -= 1;
      if (injected.remaining <= 0) messageFaults.shift();
      return injected.fault;
    },
    globalLimitRemainingMs: () => globalLimitUntil - Date.now(),
    startGlobalLimit: (retryAfterMs) => {
      globalLimitUntil = Date.now() + retryAfterMs;
    },
  };
}
