/**
 * The readToPostMs judge: for each supporter the bench added, the time from the moment the platform SERVED the
 * first fundings list that held it (the simulator's onReply) to the moment Slack RECEIVED the first post that
 * names it (the fake's record of the call). Both are stamped outside fundbot, on the same clock (Date.now of
 * the bench process), so the figure is what the bot itself adds between the read and the post: parsing,
 * diffing, the store, the outbox, the delivery pipeline and the Web API client. Pure: tested on known times.
 */
import { namesIn } from './delivery-faults/score.js';
import { percentile } from './stats.js';

/** A fundings reply as the simulator sent it: when, and the supporters it listed. */
export interface ServedList {
  readonly sentAt: number;
  readonly names: readonly string[];
}

/** A post as Slack received it: when, and the supporters it names. */
export interface ReceivedPost {
  readonly at: number;
  readonly names: readonly string[];
}

export interface ReadToPostSummary {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
  readonly samples: number;
}

export interface ReadToPostScore {
  readonly readToPostMs: ReadToPostSummary;
  /** Per supporter with a sample, in the order given. */
  readonly samplesMs: readonly number[];
  /** Supporters no served list held: the bot never read them (or the recorder missed the replies). */
  readonly neverServed: readonly string[];
  /** Supporters read but named in no post. */
  readonly neverPosted: readonly string[];
  /** Supporters posted before any list held them: the two stamps disagree, so the measurement is broken. */
  readonly postedBeforeServed: readonly string[];
}

/** The bench's supporters a fundings reply's body lists (`data[].user.display_name`, as the API sends it). */
export function namesListed(body: unknown): string[] {
  const entries = (body as { data?: { user?: { display_name?: unknown } }[] } | null)?.data ?? [];
  return entries.flatMap((entry) => namesIn(String(entry.user?.display_name ?? '')));
}

/** The earliest time at which an entry of `events` names `name`. */
function firstNaming(events: readonly { at: number; names: readonly string[] }[], name: string) {
  let first: number | undefined;
  for (const event of events)
    if (event.names.includes(name) && (first === undefined || event.at < first)) first = event.at;
  return first;
}

export function scoreReadToPost(
  supporters: readonly string[],
  served: readonly ServedList[],
  posts: readonly ReceivedPost[],
): ReadToPostScore {
  const reads = served.map((s) => ({ at: s.sentAt, names: s.names }));
  const samplesMs: number[] = [];
  const neverServed: string[] = [];
  const neverPosted: string[] = [];
  const postedBeforeServed: string[] = [];
  for (const name of supporters) {
    const readAt = firstNaming(reads, name);
    const postedAt = firstNaming(posts, name);
    if (readAt === undefined) neverServed.push(name);
    else if (postedAt === undefined) neverPosted.push(name);
    else if (postedAt < readAt) postedBeforeServed.push(name);
    else samplesMs.push(postedAt - readAt);
  }
  return {
    readToPostMs: {
      p50: Math.round(percentile(samplesMs, 50)),
      p95: Math.round(percentile(samplesMs, 95)),
      p99: Math.round(percentile(samplesMs, 99)),
      max: Math.round(percentile(samplesMs, 100)),
      samples: samplesMs.length,
    },
    samplesMs,
    neverServed,
    neverPosted,
    postedBeforeServed,
  };
}
