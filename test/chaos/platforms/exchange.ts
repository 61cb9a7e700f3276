/**
 * One request from a bot process to a chat platform, as the wire would carry it in the chaos world: it leaves only
 * from a running process; the platform processes it when its fault says (at once, late, or not at all), whatever
 * became of the process meanwhile; the answer comes when its fault says, or never, and the client gives up at its
 * own timeout; a dead process never reads it. Every exchange is written to the journal the judge reads.
 */
import type { ManualClock } from '../../support/manual-clock.js';
import type { Decided, RequestIdentity } from '../platform-faults.js';
import type { ProcessLife } from '../process-life.js';
import type { RequestFaultKind } from '../vocabulary.js';

/** What a platform answered (before the wire's faults). */
export interface PlatformReply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export interface JournalEntry extends RequestIdentity {
  readonly process: string;
  readonly fault: RequestFaultKind;
  /** What a post showed (its visible text); empty for other requests. */
  readonly text: string;
  /** What the post is, as its text says. */
  readonly postKind?: 'notice' | 'batch' | 'digest' | 'thread-parent';
  /** When the platform processed it (undefined: never). */
  processedAt?: number;
  /** The status the platform's processing returned. */
  processedStatus?: number;
  /** When the answer (or the error) reached the process. */
  answeredAt?: number;
  /** A 429's wait. */
  retryAfterMs?: number;
}

/** How each way of failing looks to the client library. */
export interface WireErrors {
  timeout(): Error;
  reset(): Error;
  refused(): Error;
}

export interface ExchangeDeps {
  readonly clock: ManualClock;
  readonly life: ProcessLife;
  /** The client's own timeout (the poster's configured one), on the world's clock. */
  readonly timeoutMs: number;
  readonly journal: JournalEntry[];
  readonly errors: WireErrors;
  /** Told when the platform received the request (kill triggers). */
  readonly received?: (entry: JournalEntry) => void;
}

const never = new Promise<never>(() => {});

export async function exchange(
  deps: ExchangeDeps,
  request: RequestIdentity & Pick<JournalEntry, 'text' | 'postKind'>,
  decided: Decided,
  perform: () => PlatformReply,
): Promise<PlatformReply> {
  const { clock, life, errors } = deps;
  await life.ready();
  const { fault, latencyMs } = decided;
  const sentAt = clock.now();
  const entry: JournalEntry = { ...request, at: sentAt, process: life.name, fault: fault.kind };
  if (fault.kind === 'rate-limited') entry.retryAfterMs = fault.retryAfterMs;
  deps.journal.push(entry);
  const until = (at: number) => (at > clock.now() ? clock.sleep(at - clock.now()) : Promise.resolve());

  if (fault.kind === 'refused') {
    await until(sentAt + 1);
    await life.ready();
    entry.answeredAt = clock.now();
    throw errors.refused();
  }
  deps.received?.(entry);
  const processes =
    fault.kind !== 'error-before' &&
    fault.kind !== 'rate-limited' &&
    !((fault.kind === 'never-answers' || fault.kind === 'reset') && !fault.lands);
  const delayed = fault.kind === 'late-landing' || fault.kind === 'late-answer' ? fault.delayMs : 0;
  const processAt = sentAt + (fault.kind === 'late-landing' ? delayed : Math.floor(latencyMs / 2));
  // The platform's side: it goes on whether the client still waits or not.
  const processed = (async (): Promise<PlatformReply | undefined> => {
    if (!processes) return undefined;
    await until(processAt);
    const reply = perform();
    entry.processedAt = clock.now();
    entry.processedStatus = reply.status;
    return reply;
  })();
  const answerAt = sentAt + Math.max(latencyMs, delayed);
  const answer = (async (): Promise<PlatformReply | Error> => {
    if (fault.kind === 'never-answers') return never;
    await until(answerAt);
    const reply = await processed;
    switch (fault.kind) {
      case 'reset':
        return errors.reset();
      case 'error-before':
      case 'error-after':
        return {
          status: fault.status,
          body: { ok: false, error: 'fatal_error', message: 'Internal Server Error', code: 0 },
        };
      case 'rate-limited':
        return rateLimited(request.platform, fault.retryAfterMs);
      default:
        return reply ?? { status: 500, body: {} };
    }
  })();
  const timer = new AbortController();
  const timedOut = clock.sleep(Math.max(0, sentAt + deps.timeoutMs - clock.now()), timer.signal).then(
    () => errors.timeout(),
    () => never,
  );
  const outcome = await Promise.race([answer, timedOut]);
  timer.abort(new Error('answered'));
  await life.ready();
  entry.answeredAt = clock.now();
  if (outcome instanceof Error) throw outcome;
  return outcome;
}

/** A 429 as each platform sends it: Slack's Retry-After in whole seconds; Discord's also in the body. */
export function rateLimited(platform: RequestIdentity['platform'], retryAfterMs: number): PlatformReply {
  if (platform === 'slack') {
    return {
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) },
    };
  }
  return {
    status: 429,
    body: { message: 'You are being rate limited.', retry_after: retryAfterMs / 1000, global: false },
    headers: { 'retry-after': String(retryAfterMs / 1000), 'x-ratelimit-scope': 'user' },
  };
}
