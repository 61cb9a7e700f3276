/**
 * A project's subscribers (followers), with or without an account: subscribe,
 * unsubscribe and the page `/subscribers` serves.
 */

import { insertChronological, type Page, slicePage } from './chronological-list.js';
import type { Subscriber } from './personal-data.js';
import type { SimProjectContext } from './project-context.js';
import type { AddSubscriberInput, ListOrder, SimHistoryEntry, SubscriberKey } from './types.js';
import { SimulatorUsageError } from './usage-error.js';
import { toSeconds } from './wire-units.js';

interface SubscriberRecord {
  readonly at: number;
  readonly key: SubscriberKey;
  readonly entry: Subscriber;
}

/** The subscribers of one project, oldest first. */
export class SubscriberList {
  readonly #subscribers: SubscriberRecord[] = [];
  readonly #ctx: Pick<SimProjectContext, 'clock' | 'users'>;
  readonly #history: SimHistoryEntry[];

  constructor(ctx: Pick<SimProjectContext, 'clock' | 'users'>, history: SimHistoryEntry[]) {
    this.#ctx = ctx;
    this.#history = history;
  }

  add(input: AddSubscriberInput): SubscriberKey {
    const at = input.at ?? this.#ctx.clock.now();
    let user: Subscriber['user'] = null;
    if (input.user !== null) {
      const seed = input.user ?? {};
      const known =
        seed.id === undefined
          ? this.#ctx.users.create({
              ...(seed.firstName === undefined ? {} : { firstName: seed.firstName }),
              ...(seed.lastName === undefined ? {} : { lastName: seed.lastName }),
            })
          : this.#ctx.users.get(seed.id);
      user = {
        id: known.id,
        first_name: seed.firstName ?? known.firstName,
        last_name: seed.lastName ?? known.lastName,
        is_public: seed.isPublic ?? true,
      };
    }
    const key: SubscriberKey = { subscribedTimestamp: toSeconds(at), userId: user?.id ?? null };
    const entry: Subscriber = {
      subscribed_timestamp: key.subscribedTimestamp,
      is_news_subscribed: input.newsSubscribed ?? true,
      user,
    };
    insertChronological(this.#subscribers, { at, key, entry });
    this.#history.push({ type: 'subscriber', at, key });
    return key;
  }

  /** Removes the oldest subscriber matching the key (an unsubscribe). */
  remove(key: SubscriberKey): void {
    const index = this.#subscribers.findIndex(
      (s) => s.key.subscribedTimestamp === key.subscribedTimestamp && s.key.userId === key.userId,
    );
    if (index < 0) throw new SimulatorUsageError(`no subscriber ${JSON.stringify(key)}`);
    this.#subscribers.splice(index, 1);
  }

  page(offset: number, limit: number, order: ListOrder): Page<Subscriber> {
    return slicePage(this.#subscribers, offset, limit, order, (s) => ({
      ...s.entry,
      user: s.entry.user === null ? null : { ...s.entry.user },
    }));
  }
}
