/**
 * A project's rewards (incentives) and their rules: creation with variants and
 * gallery, stock taken and given back by supports, and unlocking by funding. The
 * wire shapes are in reward-views.ts; this module holds only the state and the rules.
 */
import type { FileObject, IncentiveOption } from '../api/schemas/index.js';
import type { ProjectFacts, SimProjectContext } from './project-context.js';
import type { RewardSeed, SimHistoryEntry } from './types.js';
import { SimulatorUsageError } from './usage-error.js';
import { cents, fileObject } from './wire-units.js';

export interface RewardRecord {
  readonly id: number;
  title: string;
  description: string;
  price: number;
  quantityTotal: number;
  quantitySold: number;
  status: 'enabled' | 'hidden';
  addressRequired: boolean;
  hiddenUntilGoalReached: boolean;
  unlockThreshold: number | null;
  /** Sticky: a reward once unlocked stays orderable even if a failed support lowers the funding. */
  unlocked: boolean;
  isInStock: boolean;
  favorite: boolean;
  createdAt: number;
  galleryImages: FileObject[];
  variants: [VariantGroup | null, VariantGroup | null, VariantGroup | null];
}

export interface VariantGroup {
  readonly label: string;
  readonly choices: IncentiveOption[];
}

/** One line of an order: a reward, how many, and its price when ordered. */
export interface OrderedItem {
  readonly id: number;
  readonly count: number;
  readonly priceSingle: number;
}

/** The placeholder the platform puts in `quantity_remaining` of unlimited rewards. */
const unlimitedPlaceholder = 999;

/** The funding a reward waits for: its own threshold, the project goal for secret rewards, or none. */
export function unlockThresholdOf(reward: RewardRecord, fundingThreshold: number): number | null {
  if (reward.unlockThreshold !== null) return reward.unlockThreshold;
  return reward.hiddenUntilGoalReached ? fundingThreshold : null;
}

export function isAvailable(reward: RewardRecord): boolean {
  return reward.quantityTotal === 0 || reward.quantitySold < reward.quantityTotal;
}

export function remainingOf(reward: RewardRecord): number {
  return reward.quantityTotal === 0
    ? unlimitedPlaceholder
    : Math.max(0, reward.quantityTotal - reward.quantitySold);
}

/** The rewards of one project, in id (creation) order. */
export class RewardCatalog {
  readonly #rewards: RewardRecord[] = [];
  readonly #byId = new Map<number, RewardRecord>();
  readonly #project: ProjectFacts;
  readonly #ctx: Pick<SimProjectContext, 'clock' | 'ids' | 'publicBaseUrl'>;
  readonly #history: SimHistoryEntry[];

  constructor(
    project: ProjectFacts,
    ctx: Pick<SimProjectContext, 'clock' | 'ids' | 'publicBaseUrl'>,
    history: SimHistoryEntry[],
  ) {
    this.#project = project;
    this.#ctx = ctx;
    this.#history = history;
  }

  get count(): number {
    return this.#rewards.length;
  }

  /** All rewards, including hidden ones. */
  all(): readonly RewardRecord[] {
    return this.#rewards;
  }

  find(id: number): RewardRecord | undefined {
    return this.#byId.get(id);
  }

  get(id: number): RewardRecord {
    const reward = this.#byId.get(id);
    if (reward === undefined)
      throw new SimulatorUsageError(`no reward ${id} in ${this.#project.linkCaption}`);
    return reward;
  }

  thresholdOf(reward: RewardRecord): number | null {
    return unlockThresholdOf(reward, this.#project.fundingThreshold);
  }

  /** Adds a reward, already unlocked when `fundingCents` has passed its threshold; returns its id. */
  add(seed: RewardSeed, fundingCents: number): number {
    const ids = this.#ctx.ids;
    const id = seed.id ?? ids.next('reward');
    if (this.#byId.has(id))
      throw new SimulatorUsageError(`reward ${id} already exists in ${this.#project.linkCaption}`);
    ids.reserve('reward', id);
    const variants: RewardRecord['variants'] = [null, null, null];
    (seed.variants ?? []).slice(0, 3).forEach((group, index) => {
      variants[index] = {
        label: group.label,
        choices: (group.choices ?? []).map((name, position) => ({
          id: ids.next('option'),
          name,
          position: position + 1,
          group: index + 1,
        })),
      };
    });
    const base = `${this.#ctx.publicBaseUrl}/media/${this.#project.linkCaption}/reward-${id}`;
    const record: RewardRecord = {
      id,
      title: seed.title,
      description: seed.description ?? `<p>${seed.title}</p>`,
      price: seed.price,
      quantityTotal: seed.quantityTotal ?? 0,
      quantitySold: 0,
      status: seed.status ?? 'enabled',
      addressRequired: seed.addressRequired ?? false,
      hiddenUntilGoalReached: seed.hiddenUntilGoalReached ?? false,
      unlockThreshold: seed.unlockThreshold ?? null,
      unlocked: false,
      isInStock: seed.isInStock ?? false,
      favorite: seed.favorite ?? false,
      createdAt: seed.createdAt ?? this.#ctx.clock.now(),
      galleryImages: Array.from({ length: seed.galleryImages ?? 1 }, (_, i) =>
        fileObject(`${base}-${i + 1}.jpg`),
      ),
      variants,
    };
    record.unlocked =
      this.thresholdOf(record) === null || fundingCents >= cents(this.thresholdOf(record) ?? 0);
    this.#rewards.push(record);
    this.#byId.set(id, record);
    return id;
  }

  /** Orderable rewards right now (visible, unlocked, in stock): what a backer can pick. */
  orderableIds(): number[] {
    return this.#rewards
      .filter((r) => r.status === 'enabled' && r.unlocked && isAvailable(r))
      .map((r) => r.id);
  }

  /**
   * The order lines for these reward ids (repeat an id to order it several times) and
   * their minimum total; throws when a reward is locked or has too little stock left.
   */
  priceOrder(rewardIds: readonly number[]): { items: OrderedItem[]; minimumCents: number } {
    const counts = new Map<number, number>();
    for (const id of rewardIds) counts.set(id, (counts.get(id) ?? 0) + 1);
    const items: OrderedItem[] = [];
    let minimumCents = 0;
    for (const [id, count] of counts) {
      const reward = this.get(id);
      if (!reward.unlocked) throw new SimulatorUsageError(`reward ${id} is still locked`);
      if (reward.quantityTotal > 0 && reward.quantityTotal - reward.quantitySold < count) {
        throw new SimulatorUsageError(`reward ${id} has fewer than ${count} left`);
      }
      items.push({ id, count, priceSingle: reward.price });
      minimumCents += cents(reward.price) * count;
    }
    return { items, minimumCents };
  }

  /** Takes the ordered items from stock; records rewards that sell out. */
  take(items: readonly OrderedItem[], at: number): void {
    for (const item of items) {
      const reward = this.get(item.id);
      reward.quantitySold += item.count;
      if (reward.quantityTotal > 0 && reward.quantitySold >= reward.quantityTotal) {
        this.#history.push({ type: 'reward-sold-out', at, rewardId: reward.id });
      }
    }
  }

  /** Gives the items of a failed support back to stock; records rewards back in stock. */
  putBack(items: readonly OrderedItem[], at: number): void {
    for (const item of items) {
      const reward = this.get(item.id);
      const wasSoldOut = reward.quantityTotal > 0 && reward.quantitySold >= reward.quantityTotal;
      reward.quantitySold -= item.count;
      if (wasSoldOut && reward.quantitySold < reward.quantityTotal) {
        this.#history.push({ type: 'reward-back-in-stock', at, rewardId: reward.id });
      }
    }
  }

  /** Unlocks (for good) every reward whose threshold the funding has now reached. */
  unlockReached(fundingCents: number, at: number): void {
    for (const reward of this.#rewards) {
      const threshold = this.thresholdOf(reward);
      if (!reward.unlocked && threshold !== null && fundingCents >= cents(threshold)) {
        reward.unlocked = true;
        this.#history.push({ type: 'reward-unlocked', at, rewardId: reward.id });
      }
    }
  }
}
