/**
 * A project's supports in status success, the failed ones, and the funding total
 * they add up to, with the two lists the server pages through (public fundings and
 * orders). Reward stock is kept by the reward catalog; this module asks it.
 */
import type { Funding } from '../api/schemas/index.js';
import { insertChronological, type Page, slicePage } from './chronological-list.js';
import type { Order } from './personal-data.js';
import type { ProjectFacts, SimProjectContext } from './project-context.js';
import type { OrderedItem, RewardCatalog } from './reward-catalog.js';
import type { AddSupporterInput, FundingKey, ListOrder, SimHistoryEntry } from './types.js';
import { SimulatorUsageError } from './usage-error.js';
import { cents, fromCents, toSeconds } from './wire-units.js';

interface SupportRecord {
  readonly at: number;
  readonly key: FundingKey;
  readonly displayName: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly city: string;
  readonly country: string;
  readonly amountCents: number;
  readonly items: readonly OrderedItem[];
  readonly transactionNumber: string;
}

function orderView(s: SupportRecord): Order {
  const at = s.key.supportTimestamp;
  return {
    support_timestamp: at,
    updated_timestamp: at,
    collection_timestamp: at,
    transaction_number: s.transactionNumber,
    total_amount: fromCents(s.amountCents),
    status_code: 'collected',
    bill_address: { firstname: s.firstName, lastname: s.lastName, city: s.city, country: s.country },
    ordered_incentives: s.items.map((i) => ({
      id: i.id,
      count: i.count,
      price_single: i.priceSingle,
      price_total: fromCents(cents(i.priceSingle) * i.count),
    })),
  };
}

/** The supports of one project, oldest first. */
export class SupportLedger {
  readonly #supports: SupportRecord[] = [];
  readonly #supportsByUser = new Map<number, number>();
  readonly #failed: FundingKey[] = [];
  #fundingCents = 0;
  readonly #project: ProjectFacts;
  readonly #ctx: Pick<SimProjectContext, 'ids' | 'users' | 'names'>;
  readonly #rewards: RewardCatalog;
  readonly #history: SimHistoryEntry[];

  constructor(
    project: ProjectFacts,
    ctx: Pick<SimProjectContext, 'ids' | 'users' | 'names'>,
    rewards: RewardCatalog,
    history: SimHistoryEntry[],
  ) {
    this.#project = project;
    this.#ctx = ctx;
    this.#rewards = rewards;
    this.#history = history;
  }

  /** Sum of the supports in status success, in cents. */
  get fundingCents(): number {
    return this.#fundingCents;
  }

  get count(): number {
    return this.#supports.length;
  }

  /** Whether the user has a support in status success here. */
  isSupporter(userId: number): boolean {
    return (this.#supportsByUser.get(userId) ?? 0) > 0;
  }

  /** Keys of the supports currently in status success, oldest first. */
  activeKeys(): FundingKey[] {
    return this.#supports.map((s) => s.key);
  }

  /** Keys of supports that failed and dropped out, in the order they failed. */
  failedKeys(): FundingKey[] {
    return [...this.#failed];
  }

  /**
   * Records a support in status success at `at`: takes its rewards from stock and adds
   * its amount to the funding. Returns the funding's stable key.
   */
  add(input: AddSupporterInput, at: number): FundingKey {
    const { items, minimumCents } = this.#rewards.priceOrder(input.rewardIds ?? []);
    const amountCents = input.amount === undefined ? minimumCents || 1000 : cents(input.amount);
    if (amountCents < minimumCents || amountCents <= 0) {
      throw new SimulatorUsageError(
        `amount ${input.amount} is below the reward prices (${fromCents(minimumCents)})`,
      );
    }

    const users = this.#ctx.users;
    const person = this.#ctx.names.person();
    let user = input.userId === undefined ? undefined : users.get(input.userId);
    if (user === undefined) {
      const firstName = input.firstName ?? person.firstName;
      const lastName = input.lastName ?? person.lastName;
      user = users.create({
        firstName,
        lastName,
        displayName: input.displayName ?? person.displayName,
        city: input.city ?? person.city,
      });
    }
    const record: SupportRecord = {
      at,
      key: { supportTimestamp: toSeconds(at), userId: user.id },
      displayName: input.displayName ?? user.displayName,
      firstName: input.firstName ?? user.firstName,
      lastName: input.lastName ?? user.lastName,
      city: input.city ?? user.city ?? person.city,
      country: input.country ?? person.country,
      amountCents,
      items,
      transactionNumber: `TX-${this.#project.id}-${this.#ctx.ids.next('transaction')}`,
    };

    this.#rewards.take(items, at);
    insertChronological(this.#supports, record);
    this.#supportsByUser.set(user.id, (this.#supportsByUser.get(user.id) ?? 0) + 1);
    this.#fundingCents += amountCents;
    this.#history.push({
      type: 'supporter',
      at,
      key: record.key,
      displayName: record.displayName,
      amount: fromCents(amountCents),
      fundingTotal: fromCents(this.#fundingCents),
      supporterNumber: this.#supports.length,
      ...(input.madeByFault === undefined ? {} : { madeByFault: input.madeByFault }),
    });
    return record.key;
  }

  /** Drops an active support out of orders, fundings and totals; its rewards go back to stock. */
  fail(key: FundingKey, at: number): void {
    const index = this.#supports.findIndex(
      (s) => s.key.supportTimestamp === key.supportTimestamp && s.key.userId === key.userId,
    );
    const record = this.#supports[index];
    if (record === undefined) throw new SimulatorUsageError(`no active support ${JSON.stringify(key)}`);
    this.#supports.splice(index, 1);
    this.#supportsByUser.set(key.userId, (this.#supportsByUser.get(key.userId) ?? 1) - 1);
    this.#failed.push(record.key);
    this.#rewards.putBack(record.items, at);
    this.#fundingCents -= record.amountCents;
    this.#history.push({
      type: 'support-failed',
      at,
      key: record.key,
      fundingTotal: fromCents(this.#fundingCents),
    });
  }

  fundingsPage(offset: number, limit: number, order: ListOrder): Page<Funding> {
    return slicePage(this.#supports, offset, limit, order, (s) => ({
      support_timestamp: s.key.supportTimestamp,
      user: { id: s.key.userId, display_name: s.displayName },
    }));
  }

  ordersPage(offset: number, limit: number, order: ListOrder): Page<Order> {
    return slicePage(this.#supports, offset, limit, order, orderView);
  }
}
