/**
 * The fault one request to a chat platform meets, decided from the seed and the request's identity (platform,
 * what it is, its channel, its idempotency key, the how-manieth try of it this is), never from the order in which
 * requests arrive: the same seed gives the same faults however the bot's work interleaves.
 */
import { fnv1a } from '../../src/engine/state/project-state-chunks.js';
import { pick, type Random, randomInt, seededRandom } from '../../src/lib/random.js';
import type { Platform, RequestCategory, RequestFault, RequestFaultKind, Schedule } from './vocabulary.js';

export interface RequestIdentity {
  readonly platform: Platform;
  readonly category: RequestCategory;
  readonly channel: string;
  /** The idempotency key (Slack metadata) or nonce (Discord) of a post; the method of anything else. */
  readonly key: string;
  readonly at: number;
}

export interface Decided {
  readonly fault: RequestFault;
  /** How long the platform takes to answer a request that meets no delay of its own. */
  readonly latencyMs: number;
}

/** A PRNG for one decision: the seed and the parts, hashed. */
export function decisionRandom(seed: number, ...parts: readonly (string | number)[]): Random {
  return seededRandom(fnv1a(`${seed}|${parts.join('|')}`));
}

/**
 * Whether a post may land after its answer (late-landing): on, as the platforms do it. `CHAOS_LATE_LANDING=0`
 * switches it off; a late landing is then drawn as a late answer, so every seed keeps its schedule and only that
 * fault changes (it was off until seed 8's timer spin was fixed).
 */
export const lateLandingFaults = process.env['CHAOS_LATE_LANDING'] !== '0';

function faultOf(
  drawn: RequestFaultKind,
  platform: Platform,
  random: Random,
  lateLanding: boolean,
): RequestFault {
  const kind = drawn === 'late-landing' && !lateLanding ? 'late-answer' : drawn;
  switch (kind) {
    case 'ok':
    case 'refused':
      return { kind };
    case 'error-before':
      return { kind, status: pick(random, [500, 502, 503] as const) };
    case 'error-after':
      return { kind, status: pick(random, [500, 503] as const) };
    case 'rate-limited':
      // Slack asks for seconds (up to half a minute for a busy channel); Discord's per-route waits are short,
      // and discord.js waits them out itself (on the real clock: the chaos keeps them under a second).
      return {
        kind,
        retryAfterMs: platform === 'slack' ? randomInt(random, 1, 30) * 1_000 : randomInt(random, 20, 150),
      };
    case 'late-landing':
    case 'late-answer':
      return { kind, delayMs: randomInt(random, 0, 90_000) };
    case 'never-answers':
    case 'reset':
      return { kind, lands: random.next() < 0.6 };
  }
}

export class PlatformFaults {
  readonly #attempts = new Map<string, number>();

  /** `lateLanding` false draws late landings as late answers (the seed's schedule otherwise unchanged). */
  constructor(
    private readonly schedule: Schedule,
    private readonly lateLanding = lateLandingFaults,
  ) {}

  decide(request: RequestIdentity): Decided {
    const { platform, category, channel, key, at } = request;
    const id = `${platform}|${category}|${channel}|${key}`;
    const attempt = (this.#attempts.get(id) ?? 0) + 1;
    this.#attempts.set(id, attempt);
    const random = decisionRandom(this.schedule.seed, id, attempt);
    const latencyMs = randomInt(random, 20, 400);
    const { weather } = this.schedule;
    if (category === 'post') {
      const storm = this.schedule.storms.find(
        (s) =>
          s.platform === platform &&
          (s.channel === undefined || s.channel === channel) &&
          at >= s.from &&
          at < s.to,
      );
      if (storm && random.next() < storm.rate)
        return { fault: faultOf(storm.fault, platform, random, this.lateLanding), latencyMs };
    }
    const rate =
      category === 'post'
        ? weather.postFaultRate[platform]
        : category === 'look'
          ? weather.lookFaultRate
          : category === 'edit'
            ? weather.editFaultRate
            : weather.lookFaultRate / 4;
    if (random.next() >= rate) return { fault: { kind: 'ok' }, latencyMs };
    const kinds = Object.entries(weather.mix) as [RequestFaultKind, number][];
    // Looks, edits and the rest meet the faults that make sense for a read or an idempotent change.
    const usable =
      category === 'post'
        ? kinds
        : kinds.filter(
            ([k]) => k === 'error-before' || k === 'rate-limited' || k === 'never-answers' || k === 'reset',
          );
    const total = usable.reduce((sum, [, w]) => sum + w, 0);
    if (total === 0) return { fault: { kind: 'ok' }, latencyMs };
    let roll = random.next() * total;
    for (const [kind, weight] of usable) {
      roll -= weight;
      if (roll < 0) return { fault: faultOf(kind, platform, random, this.lateLanding), latencyMs };
    }
    return { fault: { kind: 'ok' }, latencyMs };
  }
}
