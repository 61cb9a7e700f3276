import type {
  BlogPost,
  FileObject,
  Funding,
  Incentive,
  IncentiveDetail,
  IncentiveOption,
  Order,
  OwnIncentive,
  OwnProject,
  Project,
  Subscriber,
  WallPost,
} from '../api/schemas/index.js';
import type { Clock } from '../lib/clock.js';
import { readingTimeMinutes, teaserOf } from './blog-text.js';
import type { IdSource } from './ids.js';
import type { NameGenerator } from './names.js';
import type {
  AddBlogPostInput,
  AddSubscriberInput,
  AddSupporterInput,
  AddWallPostInput,
  FundingKey,
  ListOrder,
  ProjectPlan,
  ProjectSeed,
  ProjectSnapshot,
  RewardSeed,
  SimHistoryEntry,
  SubscriberKey,
  TeamRole,
} from './types.js';
import type { UserRegistry } from './users.js';

/** What a project needs from its simulator. */
export interface SimProjectContext {
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly users: UserRegistry;
  readonly names: NameGenerator;
  readonly publicBaseUrl: string;
}

interface RewardRecord {
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

interface VariantGroup {
  readonly label: string;
  readonly choices: IncentiveOption[];
}

interface SupportRecord {
  readonly at: number;
  readonly key: FundingKey;
  readonly displayName: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly city: string;
  readonly country: string;
  readonly amountCents: number;
  readonly items: readonly { id: number; count: number; priceSingle: number }[];
  readonly transactionNumber: string;
}

interface WallRecord {
  readonly at: number;
  readonly post: WallPost;
}

interface BlogRecord {
  readonly at: number;
  readonly id: number;
  readonly title: string;
  readonly text: string;
  readonly type: 'text' | 'story';
  readonly supporterOnly: boolean;
  readonly description: string;
}

interface SubscriberRecord {
  readonly at: number;
  readonly key: SubscriberKey;
  readonly entry: Subscriber;
}

/** A page of a time-ordered list. */
export interface Page<T> {
  readonly items: T[];
  readonly total: number;
}

/** Thrown when a test or scenario asks for something the platform would not allow. */
export class SimulatorUsageError extends Error {
  override readonly name = 'SimulatorUsageError';
}

const toSeconds = (ms: number) => Math.floor(ms / 1000);
const cents = (amount: number) => Math.round(amount * 100);
const fromCents = (value: number) => value / 100;
/** The placeholder the platform puts in `quantity_remaining` of unlimited rewards. */
const unlimitedPlaceholder = 999;
const milestoneStep = 25;

/**
 * Appends keeping chronological order. Entries nearly always arrive in time order,
 * so the search from the end makes this O(1) amortised.
 */
function insertChronological<T extends { readonly at: number }>(list: T[], item: T): void {
  let index = list.length;
  while (index > 0 && (list[index - 1] as T).at > item.at) index--;
  if (index === list.length) list.push(item);
  else list.splice(index, 0, item);
}

/** One page of a chronological list in the requested order; O(page). */
export function slicePage<T, R>(
  list: readonly T[],
  offset: number,
  limit: number,
  order: ListOrder,
  map: (item: T) => R,
): Page<R> {
  const total = list.length;
  const items: R[] = [];
  for (let i = offset; i < Math.min(total, offset + limit); i++) {
    const item = order === 'newest-first' ? list[total - 1 - i] : list[i];
    if (item !== undefined) items.push(map(item));
  }
  return { items, total };
}

function fileObject(url: string): FileObject {
  return { is_image: true, thumbnails: { '1x': `${url}?w=600`, '2x': `${url}?w=1200` } };
}

/**
 * One simulated project: live controls for tests and scenarios, the views the
 * HTTP server renders, and the ground truth (`snapshot()`, `history`).
 */
export class SimProject {
  readonly id: number;
  readonly linkCaption: string;
  title: string;
  subtitle: string;
  teaserText: string;
  readonly currency: string;
  fundingThreshold: number;
  readonly allOrNothing: boolean;
  plan: ProjectPlan;
  likeCount: number;
  activationAt: number;
  endAt: number;

  #status: string;
  #processStatus: string | null;
  #ownerId: number;
  readonly #team = new Map<number, TeamRole>();
  #fundingCents = 0;
  #goalReached = false;
  #milestone = 0;
  readonly #rewards: RewardRecord[] = [];
  readonly #rewardById = new Map<number, RewardRecord>();
  readonly #supports: SupportRecord[] = [];
  readonly #supportsByUser = new Map<number, number>();
  readonly #failed: FundingKey[] = [];
  readonly #wall: WallRecord[] = [];
  readonly #blog: { text: BlogRecord[]; story: BlogRecord[] } = { text: [], story: [] };
  readonly #subscribers: SubscriberRecord[] = [];
  readonly #history: SimHistoryEntry[] = [];
  readonly #ctx: SimProjectContext;

  constructor(seed: ProjectSeed, ctx: SimProjectContext) {
    this.#ctx = ctx;
    const now = ctx.clock.now();
    this.id = seed.id ?? ctx.ids.next('project');
    ctx.ids.reserve('project', this.id);
    this.linkCaption = seed.linkCaption;
    this.title = seed.title ?? seed.linkCaption;
    this.subtitle = seed.subtitle ?? '';
    this.teaserText = seed.teaserText ?? '';
    this.#status = seed.status ?? 'active';
    this.#processStatus = seed.processStatus ?? null;
    this.currency = seed.currency ?? 'EUR';
    this.fundingThreshold = seed.fundingThreshold ?? 10_000;
    this.allOrNothing = seed.allOrNothing ?? true;
    this.plan = seed.plan ?? 'pro';
    this.likeCount = seed.likeCount ?? 0;
    this.activationAt = seed.activationAt ?? now - 7 * 86_400_000;
    this.endAt = seed.endAt ?? now + 30 * 86_400_000;
    for (const { id, ...fields } of seed.users ?? []) ctx.users.update(id, fields);
    this.#ownerId = seed.ownerId ?? ctx.users.create().id;
    ctx.users.get(this.#ownerId);
    for (const member of seed.team ?? []) this.addTeamMember(member.userId, member.role);
    for (const reward of seed.rewards ?? []) this.addReward(reward);
    // Seeds may come in any order; applying them by time keeps the derived history right.
    const timed = <T extends { at?: number }>(items: readonly T[] | undefined) =>
      [...(items ?? [])].sort((a, b) => (a.at ?? now) - (b.at ?? now));
    for (const s of timed(seed.supporters)) this.addSupporter(s);
    for (const s of timed(seed.subscribers)) this.addSubscriber(s);
    for (const w of timed(seed.wallPosts)) this.addWallPost(w);
    for (const b of timed(seed.blogPosts)) this.addBlogPost(b);
  }

  // ---------------------------------------------------------------- state

  get status(): string {
    return this.#status;
  }
  get processStatus(): string | null {
    return this.#processStatus;
  }
  get isPaidOut(): boolean {
    return this.#processStatus === 'payoff';
  }
  get ownerId(): number {
    return this.#ownerId;
  }
  get currentFunding(): number {
    return fromCents(this.#fundingCents);
  }
  get supporterCount(): number {
    return this.#supports.length;
  }
  get history(): readonly SimHistoryEntry[] {
    return this.#history;
  }
  /** Whether the user is owner, manager or team member. */
  isTeamMember(userId: number): boolean {
    return userId === this.#ownerId || this.#team.has(userId);
  }
  /** Role of a user: owner, manager, member or null. */
  roleOf(userId: number): 'owner' | TeamRole | null {
    if (userId === this.#ownerId) return 'owner';
    return this.#team.get(userId) ?? null;
  }
  /** Whether the user has a support in status success here. */
  isSupporter(userId: number): boolean {
    return (this.#supportsByUser.get(userId) ?? 0) > 0;
  }
  /** `/orders` is available only once successfully funded (100%); a flexible project from its first support. */
  get fundedSuccessfully(): boolean {
    if (this.#status === 'successful') return true;
    if (!this.allOrNothing) return this.#supports.length > 0;
    return this.#fundingCents >= cents(this.fundingThreshold);
  }

  // ---------------------------------------------------------------- controls

  /** Changes `project.status`; `at` (epoch ms, default now) only dates the history entry. */
  setStatus(status: string, at: number = this.#ctx.clock.now()): void {
    if (status === this.#status) return;
    this.#history.push({ type: 'status', at, from: this.#status, to: status });
    this.#status = status;
  }

  /** Pays the project out (`process_status` = payoff): supports are frozen from now on. */
  payoff(at: number = this.#ctx.clock.now()): void {
    if (this.isPaidOut) return;
    this.#processStatus = 'payoff';
    this.#history.push({ type: 'payoff', at });
  }

  setOwner(userId: number): void {
    this.#ctx.users.get(userId);
    this.#ownerId = userId;
    this.#team.delete(userId);
  }

  addTeamMember(userId: number, role: TeamRole = 'member'): void {
    this.#ctx.users.get(userId);
    if (userId !== this.#ownerId) this.#team.set(userId, role);
  }

  removeTeamMember(userId: number): void {
    this.#team.delete(userId);
  }

  /** Adds a reward; returns its id. */
  addReward(seed: RewardSeed): number {
    const ids = this.#ctx.ids;
    const id = seed.id ?? ids.next('reward');
    if (this.#rewardById.has(id))
      throw new SimulatorUsageError(`reward ${id} already exists in ${this.linkCaption}`);
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
    const base = `${this.#ctx.publicBaseUrl}/media/${this.linkCaption}/reward-${id}`;
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
      this.#thresholdOf(record) === null || this.#fundingCents >= cents(this.#thresholdOf(record) ?? 0);
    this.#rewards.push(record);
    this.#rewardById.set(id, record);
    return id;
  }

  /** Hides or shows a reward manually (`status` hidden / enabled). */
  setRewardStatus(rewardId: number, status: 'enabled' | 'hidden'): void {
    this.#reward(rewardId).status = status;
  }

  /**
   * A new support in status success: a public funding entry plus an order; totals,
   * supporter count and reward stock follow; rewards unlock when funding crosses
   * their threshold. Returns the funding's stable key.
   */
  addSupporter(input: AddSupporterInput = {}): FundingKey {
    if (this.isPaidOut) throw new SimulatorUsageError(`${this.linkCaption} is paid out: no new supports`);
    const at = input.at ?? this.#ctx.clock.now();
    const counts = new Map<number, number>();
    for (const id of input.rewardIds ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
    const items: SupportRecord['items'][number][] = [];
    let minimumCents = 0;
    for (const [id, count] of counts) {
      const reward = this.#reward(id);
      if (!reward.unlocked) throw new SimulatorUsageError(`reward ${id} is still locked`);
      if (reward.quantityTotal > 0 && reward.quantityTotal - reward.quantitySold < count) {
        throw new SimulatorUsageError(`reward ${id} has fewer than ${count} left`);
      }
      items.push({ id, count, priceSingle: reward.price });
      minimumCents += cents(reward.price) * count;
    }
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
      transactionNumber: `TX-${this.id}-${this.#ctx.ids.next('transaction')}`,
    };

    for (const item of items) {
      const reward = this.#reward(item.id);
      reward.quantitySold += item.count;
      if (reward.quantityTotal > 0 && reward.quantitySold >= reward.quantityTotal) {
        this.#history.push({ type: 'reward-sold-out', at, rewardId: reward.id });
      }
    }
    insertChronological(this.#supports, record);
    this.#supportsByUser.set(user.id, (this.#supportsByUser.get(user.id) ?? 0) + 1);
    this.#fundingCents += amountCents;
    this.#history.push({
      type: 'supporter',
      at,
      key: record.key,
      displayName: record.displayName,
      amount: fromCents(amountCents),
      fundingTotal: this.currentFunding,
      supporterNumber: this.#supports.length,
    });
    this.#afterFundingChange(at);
    return record.key;
  }

  /**
   * A support leaves status success (e.g. a failed collection): it drops out of
   * orders, fundings and totals and its rewards go back to stock. Only before payoff.
   */
  failSupport(key: FundingKey, at: number = this.#ctx.clock.now()): void {
    if (this.isPaidOut) throw new SimulatorUsageError(`${this.linkCaption} is paid out: supports are frozen`);
    const index = this.#supports.findIndex(
      (s) => s.key.supportTimestamp === key.supportTimestamp && s.key.userId === key.userId,
    );
    const record = this.#supports[index];
    if (record === undefined) throw new SimulatorUsageError(`no active support ${JSON.stringify(key)}`);
    this.#supports.splice(index, 1);
    this.#supportsByUser.set(key.userId, (this.#supportsByUser.get(key.userId) ?? 1) - 1);
    this.#failed.push(record.key);
    for (const item of record.items) {
      const reward = this.#reward(item.id);
      const wasSoldOut = reward.quantityTotal > 0 && reward.quantitySold >= reward.quantityTotal;
      reward.quantitySold -= item.count;
      if (wasSoldOut && reward.quantitySold < reward.quantityTotal) {
        this.#history.push({ type: 'reward-back-in-stock', at, rewardId: reward.id });
      }
    }
    this.#fundingCents -= record.amountCents;
    this.#history.push({ type: 'support-failed', at, key: record.key, fundingTotal: this.currentFunding });
  }

  /** Keys of the supports currently in status success, oldest first. */
  activeSupportKeys(): FundingKey[] {
    return this.#supports.map((s) => s.key);
  }

  addSubscriber(input: AddSubscriberInput = {}): SubscriberKey {
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
  removeSubscriber(key: SubscriberKey): void {
    const index = this.#subscribers.findIndex(
      (s) => s.key.subscribedTimestamp === key.subscribedTimestamp && s.key.userId === key.userId,
    );
    if (index < 0) throw new SimulatorUsageError(`no subscriber ${JSON.stringify(key)}`);
    this.#subscribers.splice(index, 1);
  }

  /** Adds a wall post; returns its id. */
  addWallPost(input: AddWallPostInput): number {
    const at = input.at ?? this.#ctx.clock.now();
    const users = this.#ctx.users;
    const user =
      input.userId !== undefined
        ? users.get(input.userId)
        : users.create(input.authorName === undefined ? {} : { displayName: input.authorName });
    const id = this.#ctx.ids.next('wall');
    const post: WallPost = {
      id,
      message: input.message,
      status: 'published',
      created_timestamp: toSeconds(at),
      user: {
        id: user.id,
        first_name: user.firstName,
        last_name: user.lastName,
        display_name: input.authorName ?? user.displayName,
      },
    };
    insertChronological(this.#wall, { at, post });
    this.#history.push({ type: 'wall-post', at, id, authorName: post.user.display_name });
    return id;
  }

  /** Deletes a wall post (moderation): later entries shift position. */
  removeWallPost(id: number, at: number = this.#ctx.clock.now()): void {
    const index = this.#wall.findIndex((w) => w.post.id === id);
    if (index < 0) throw new SimulatorUsageError(`no wall post ${id} in ${this.linkCaption}`);
    this.#wall.splice(index, 1);
    this.#history.push({ type: 'wall-post-removed', at, id });
  }

  /** Publishes a blog post; returns its id. */
  addBlogPost(input: AddBlogPostInput): number {
    const at = input.at ?? this.#ctx.clock.now();
    const id = this.#ctx.ids.next('blog');
    insertChronological(this.#blog[input.type], {
      at,
      id,
      title: input.title,
      text: input.text,
      type: input.type,
      supporterOnly: input.supporterOnly,
      description: teaserOf(input.text, input.description),
    });
    this.#history.push({
      type: 'blog-post',
      at,
      id,
      blogType: input.type,
      supporterOnly: input.supporterOnly,
    });
    return id;
  }

  /** The newest wall post ids (newest first), e.g. to remove one. */
  wallPostIds(): number[] {
    return this.#wall.map((w) => w.post.id).reverse();
  }

  // ---------------------------------------------------------------- views

  /** `project` object. `full` adds the fields only a key with access sees. */
  projectView(full: boolean): Project & Record<string, unknown> {
    const main = `${this.#ctx.publicBaseUrl}/${this.linkCaption}`;
    const view: Project & Record<string, unknown> = {
      id: this.id,
      title: this.title,
      subtitle: this.subtitle,
      link_caption: this.linkCaption,
      status: this.#status,
      currency: this.currency,
      current_funding: this.currentFunding,
      total_funding: this.currentFunding,
      funding_threshold: this.fundingThreshold,
      project_type_all_or_nothing: this.allOrNothing,
      supporter_count: this.#supports.length,
      like_count: this.likeCount,
      teaser_text: this.teaserText,
      url: {
        main,
        main_relative: `/${this.linkCaption}`,
        comments: `${main}/comments`,
        faq: `${main}/faq`,
        widget: `${main}/widget`,
        localized_urls: { de: `/de/${this.linkCaption}`, en: `/en/${this.linkCaption}` },
      },
    };
    if (full) {
      view.process_status = this.#processStatus;
      view.activation_timestamp = toSeconds(this.activationAt);
      view.end_timestamp = toSeconds(this.endAt);
    }
    return view;
  }

  ownProjectView(): OwnProject {
    return {
      id: this.id,
      title: this.title,
      link_caption: this.linkCaption,
      status: this.#status,
      currency: this.currency,
      current_funding: this.currentFunding,
      funding_threshold: this.fundingThreshold,
      supporter_count: this.#supports.length,
    };
  }

  rewardCount(): number {
    return this.#rewards.length;
  }

  /** Rewards in id order (all, including hidden ones). */
  rewardsPage(offset: number, limit: number): Page<Incentive> {
    return slicePage(this.#rewards, offset, limit, 'oldest-first', (r) => this.#rewardView(r));
  }

  /** One reward with its variation fields, or undefined when not in this project. */
  rewardDetail(rewardId: number): IncentiveDetail | undefined {
    const reward = this.#rewardById.get(rewardId);
    return reward === undefined ? undefined : this.#rewardDetailView(reward);
  }

  /** Items of `/user/me/incentives` (active = enabled rewards) with the sort keys the server needs. */
  ownIncentives(): { item: OwnIncentive; sold: number; createdAt: number; favorite: boolean }[] {
    return this.#rewards
      .filter((r) => r.status === 'enabled')
      .map((r) => ({
        item: {
          id: r.id,
          title: r.title,
          price: r.price,
          is_available: this.#isAvailable(r),
          quantity_total: r.quantityTotal,
          quantity_remaining: this.#remaining(r),
          project: { id: this.id, title: this.title, link_caption: this.linkCaption },
        },
        sold: r.quantitySold,
        createdAt: r.createdAt,
        favorite: r.favorite,
      }));
  }

  /** Orderable rewards right now (visible, unlocked, in stock): what a backer can pick. */
  orderableRewardIds(): number[] {
    return this.#rewards
      .filter((r) => r.status === 'enabled' && r.unlocked && this.#isAvailable(r))
      .map((r) => r.id);
  }

  rewardPrice(rewardId: number): number {
    return this.#reward(rewardId).price;
  }

  fundingsPage(offset: number, limit: number, order: ListOrder): Page<Funding> {
    return slicePage(this.#supports, offset, limit, order, (s) => ({
      support_timestamp: s.key.supportTimestamp,
      user: { id: s.key.userId, display_name: s.displayName },
    }));
  }

  ordersPage(offset: number, limit: number, order: ListOrder): Page<Order> {
    return slicePage(this.#supports, offset, limit, order, (s) => this.#orderView(s));
  }

  subscribersPage(offset: number, limit: number, order: ListOrder): Page<Subscriber> {
    return slicePage(this.#subscribers, offset, limit, order, (s) => ({
      ...s.entry,
      user: s.entry.user === null ? null : { ...s.entry.user },
    }));
  }

  wallPage(offset: number, limit: number, order: ListOrder): Page<WallPost> {
    return slicePage(this.#wall, offset, limit, order, (w) => ({ ...w.post, user: { ...w.post.user } }));
  }

  /** Blog posts of one type; supporter-only posts are redacted unless `entitled`. */
  blogPage(
    type: 'text' | 'story',
    offset: number,
    limit: number,
    order: ListOrder,
    entitled: boolean,
  ): Page<BlogPost> {
    return slicePage(this.#blog[type], offset, limit, order, (b) => this.#blogView(b, entitled));
  }

  snapshot(): ProjectSnapshot {
    const all = Number.MAX_SAFE_INTEGER;
    const blog = [...this.#blog.text, ...this.#blog.story].sort((a, b) => a.at - b.at || a.id - b.id);
    return {
      project: this.projectView(true),
      rewards: this.#rewards.map((r) => this.#rewardDetailView(r)),
      fundings: this.fundingsPage(0, all, 'oldest-first').items,
      wall: this.wallPage(0, all, 'oldest-first').items,
      blog: blog.map((b) => this.#blogView(b, true)),
      orders: this.ordersPage(0, all, 'oldest-first').items,
      subscribers: this.subscribersPage(0, all, 'oldest-first').items,
      failedSupports: [...this.#failed],
      history: [...this.#history],
    };
  }

  // ---------------------------------------------------------------- internals

  #reward(id: number): RewardRecord {
    const reward = this.#rewardById.get(id);
    if (reward === undefined) throw new SimulatorUsageError(`no reward ${id} in ${this.linkCaption}`);
    return reward;
  }

  #thresholdOf(reward: RewardRecord): number | null {
    if (reward.unlockThreshold !== null) return reward.unlockThreshold;
    return reward.hiddenUntilGoalReached ? this.fundingThreshold : null;
  }

  #isAvailable(reward: RewardRecord): boolean {
    return reward.quantityTotal === 0 || reward.quantitySold < reward.quantityTotal;
  }

  #remaining(reward: RewardRecord): number {
    return reward.quantityTotal === 0
      ? unlimitedPlaceholder
      : Math.max(0, reward.quantityTotal - reward.quantitySold);
  }

  #afterFundingChange(at: number): void {
    const goalCents = cents(this.fundingThreshold);
    for (const reward of this.#rewards) {
      const threshold = this.#thresholdOf(reward);
      if (!reward.unlocked && threshold !== null && this.#fundingCents >= cents(threshold)) {
        reward.unlocked = true;
        this.#history.push({ type: 'reward-unlocked', at, rewardId: reward.id });
      }
    }
    if (goalCents > 0) {
      const percent = Math.floor((this.#fundingCents * 100) / goalCents / milestoneStep) * milestoneStep;
      for (let p = this.#milestone + milestoneStep; p <= percent; p += milestoneStep) {
        this.#history.push({ type: 'milestone', at, percent: p, fundingTotal: this.currentFunding });
      }
      this.#milestone = Math.max(this.#milestone, percent);
    }
    if (!this.#goalReached && this.#fundingCents >= goalCents) {
      this.#goalReached = true;
      this.#history.push({ type: 'goal-reached', at, fundingTotal: this.currentFunding });
    }
  }

  #rewardView(reward: RewardRecord): Incentive & Record<string, unknown> {
    const threshold = this.#thresholdOf(reward);
    const view: Incentive & Record<string, unknown> = {
      id: reward.id,
      title: reward.title,
      description: reward.description,
      price: reward.price,
      quantity_total: reward.quantityTotal,
      quantity_remaining: this.#remaining(reward),
      quantity_sold: reward.quantitySold,
      status: reward.status,
      address_required: reward.addressRequired,
      is_available: this.#isAvailable(reward),
      is_unlocked: reward.unlocked,
      hidden_until_goal_reached: reward.hiddenUntilGoalReached,
      is_in_stock: reward.isInStock,
      url: `${this.#ctx.publicBaseUrl}/${this.linkCaption}/rewards/${reward.id}`,
      gallery_images: reward.galleryImages.map((g) => ({ ...g })),
      image: null,
      project: { id: this.id, title: this.title, link_caption: this.linkCaption, currency: this.currency },
    };
    if (threshold !== null) {
      view.funding_amount_until_unlock = reward.unlocked
        ? 0
        : fromCents(Math.max(0, cents(threshold) - this.#fundingCents));
    }
    return view;
  }

  #rewardDetailView(reward: RewardRecord): IncentiveDetail & Record<string, unknown> {
    const [g1, g2, g3] = reward.variants;
    const choices = (group: VariantGroup | null) => group?.choices.map((c) => ({ ...c })) ?? [];
    return {
      ...this.#rewardView(reward),
      variant_label_1: g1?.label ?? null,
      variant_label_2: g2?.label ?? null,
      variant_label_3: g3?.label ?? null,
      variant_choices_1: choices(g1),
      variant_choices_2: choices(g2),
      variant_choices_3: choices(g3),
    };
  }

  #orderView(s: SupportRecord): Order {
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

  #blogView(b: BlogRecord, entitled: boolean): BlogPost {
    const media = `${this.#ctx.publicBaseUrl}/media/${this.linkCaption}/blog-${b.id}`;
    const locked = b.supporterOnly && !entitled;
    const base = {
      id: b.id,
      title: b.title,
      type: b.type,
      status: 'published',
      release_timestamp: toSeconds(b.at),
      is_supporter_only: b.supporterOnly,
      description: b.description,
      reading_time_minutes: readingTimeMinutes(b.text),
      url: `${this.#ctx.publicBaseUrl}/${this.linkCaption}/blog/${b.id}`,
    };
    if (locked) {
      return {
        ...base,
        text: '',
        is_locked: true,
        image: null,
        image_mobile: null,
        gallery_images: [],
        embed_url_13: '',
        video: null,
      };
    }
    return {
      ...base,
      text: b.text,
      is_locked: false,
      image: fileObject(`${media}.jpg`),
      image_mobile: fileObject(`${media}-mobile.jpg`),
      gallery_images: [fileObject(`${media}-1.jpg`)],
      embed_url_13: b.type === 'story' ? `https://video.example/embed/${b.id}` : '',
      video: b.type === 'story' ? { url: `https://video.example/${b.id}.mp4` } : null,
    };
  }
}
