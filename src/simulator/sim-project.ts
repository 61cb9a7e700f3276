import type {
  BlogPost,
  Funding,
  Incentive,
  IncentiveDetail,
  OwnProject,
  Project,
  WallPost,
} from '../api/schemas/index.js';
import { type Page, slicePage } from './chronological-list.js';
import { FundingProgress } from './funding-progress.js';
import type { Order, Subscriber } from './personal-data.js';
import { ProjectBlog } from './project-blog.js';
import type { SimProjectContext } from './project-context.js';
import { ProjectTeam } from './project-team.js';
import { ownProjectView, projectView } from './project-views.js';
import { ProjectWall } from './project-wall.js';
import { RewardCatalog } from './reward-catalog.js';
import {
  type OwnIncentiveEntry,
  ownIncentiveEntries,
  type RewardViewContext,
  rewardDetailView,
  rewardView,
} from './reward-views.js';
import { SubscriberList } from './subscriber-list.js';
import { SupportLedger } from './support-ledger.js';
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
import { SimulatorUsageError } from './usage-error.js';
import { cents, fromCents } from './wire-units.js';

// Re-exported so callers keep importing the project's vocabulary from this module.
export type { Page } from './chronological-list.js';
export { slicePage } from './chronological-list.js';
export type { SimProjectContext } from './project-context.js';
export { SimulatorUsageError } from './usage-error.js';

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
  readonly #team: ProjectTeam;
  readonly #history: SimHistoryEntry[] = [];
  readonly #ctx: SimProjectContext;
  // The parts share the history array, so it keeps the order things happened across them.
  readonly #rewards: RewardCatalog;
  readonly #supports: SupportLedger;
  readonly #progress: FundingProgress;
  readonly #wall: ProjectWall;
  readonly #blog: ProjectBlog;
  readonly #subscribers: SubscriberList;

  constructor(seed: ProjectSeed, ctx: SimProjectContext) {
    this.#ctx = ctx;
    this.#rewards = new RewardCatalog(this, ctx, this.#history);
    this.#supports = new SupportLedger(this, ctx, this.#rewards, this.#history);
    this.#progress = new FundingProgress(this.#history);
    this.#wall = new ProjectWall(this, ctx, this.#history);
    this.#blog = new ProjectBlog(this, ctx, this.#history);
    this.#subscribers = new SubscriberList(ctx, this.#history);
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
    this.#team = new ProjectTeam(ctx.users, seed.ownerId ?? ctx.users.create().id);
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
    return this.#team.ownerId;
  }
  get currentFunding(): number {
    return fromCents(this.#supports.fundingCents);
  }
  get supporterCount(): number {
    return this.#supports.count;
  }
  get history(): readonly SimHistoryEntry[] {
    return this.#history;
  }
  /** Whether the user is owner, manager or team member. */
  isTeamMember(userId: number): boolean {
    return this.#team.isMember(userId);
  }
  /** Role of a user: owner, manager, member or null. */
  roleOf(userId: number): 'owner' | TeamRole | null {
    return this.#team.roleOf(userId);
  }
  /** Whether the user has a support in status success here. */
  isSupporter(userId: number): boolean {
    return this.#supports.isSupporter(userId);
  }
  /** `/orders` is available only once successfully funded (100%); a flexible project from its first support. */
  get fundedSuccessfully(): boolean {
    if (this.#status === 'successful') return true;
    if (!this.allOrNothing) return this.#supports.count > 0;
    return this.#supports.fundingCents >= cents(this.fundingThreshold);
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
    this.#team.setOwner(userId);
  }

  addTeamMember(userId: number, role: TeamRole = 'member'): void {
    this.#team.add(userId, role);
  }

  removeTeamMember(userId: number): void {
    this.#team.remove(userId);
  }

  /** Adds a reward; returns its id. */
  addReward(seed: RewardSeed): number {
    return this.#rewards.add(seed, this.#supports.fundingCents);
  }

  /** Hides or shows a reward manually (`status` hidden / enabled). */
  setRewardStatus(rewardId: number, status: 'enabled' | 'hidden'): void {
    this.#rewards.get(rewardId).status = status;
  }

  /**
   * A new support in status success: a public funding entry plus an order; totals,
   * supporter count and reward stock follow; rewards unlock when funding crosses
   * their threshold. Returns the funding's stable key.
   */
  addSupporter(input: AddSupporterInput = {}): FundingKey {
    if (this.isPaidOut) throw new SimulatorUsageError(`${this.linkCaption} is paid out: no new supports`);
    const at = input.at ?? this.#ctx.clock.now();
    const key = this.#supports.add(input, at);
    this.#afterFundingChange(at);
    return key;
  }

  /**
   * A support leaves status success (e.g. a failed collection): it drops out of
   * orders, fundings and totals and its rewards go back to stock. Only before payoff.
   */
  failSupport(key: FundingKey, at: number = this.#ctx.clock.now()): void {
    if (this.isPaidOut) throw new SimulatorUsageError(`${this.linkCaption} is paid out: supports are frozen`);
    this.#supports.fail(key, at);
  }

  /** Keys of the supports currently in status success, oldest first. */
  activeSupportKeys(): FundingKey[] {
    return this.#supports.activeKeys();
  }

  addSubscriber(input: AddSubscriberInput = {}): SubscriberKey {
    return this.#subscribers.add(input);
  }

  /** Removes the oldest subscriber matching the key (an unsubscribe). */
  removeSubscriber(key: SubscriberKey): void {
    this.#subscribers.remove(key);
  }

  /** Adds a wall post; returns its id. */
  addWallPost(input: AddWallPostInput): number {
    return this.#wall.add(input);
  }

  /** Deletes a wall post (moderation): later entries shift position. */
  removeWallPost(id: number, at: number = this.#ctx.clock.now()): void {
    this.#wall.remove(id, at);
  }

  /** Publishes a blog post; returns its id. */
  addBlogPost(input: AddBlogPostInput): number {
    return this.#blog.add(input);
  }

  /** The newest wall post ids (newest first), e.g. to remove one. */
  wallPostIds(): number[] {
    return this.#wall.ids();
  }

  // ---------------------------------------------------------------- views

  /** `project` object. `full` adds the fields only a key with access sees. */
  projectView(full: boolean): Project & Record<string, unknown> {
    return projectView(this, this.#ctx.publicBaseUrl, full);
  }

  ownProjectView(): OwnProject {
    return ownProjectView(this);
  }

  rewardCount(): number {
    return this.#rewards.count;
  }

  /** Rewards in id order (all, including hidden ones). */
  rewardsPage(offset: number, limit: number): Page<Incentive> {
    const view = this.#rewardViewContext();
    return slicePage(this.#rewards.all(), offset, limit, 'oldest-first', (r) => rewardView(r, view));
  }

  /** One reward with its variation fields, or undefined when not in this project. */
  rewardDetail(rewardId: number): IncentiveDetail | undefined {
    const reward = this.#rewards.find(rewardId);
    return reward === undefined ? undefined : rewardDetailView(reward, this.#rewardViewContext());
  }

  /** Items of `/user/me/incentives` (active = enabled rewards) with the sort keys the server needs. */
  ownIncentives(): OwnIncentiveEntry[] {
    return ownIncentiveEntries(this.#rewards.all(), this);
  }

  /** Orderable rewards right now (visible, unlocked, in stock): what a backer can pick. */
  orderableRewardIds(): number[] {
    return this.#rewards.orderableIds();
  }

  rewardPrice(rewardId: number): number {
    return this.#rewards.get(rewardId).price;
  }

  fundingsPage(offset: number, limit: number, order: ListOrder): Page<Funding> {
    return this.#supports.fundingsPage(offset, limit, order);
  }

  ordersPage(offset: number, limit: number, order: ListOrder): Page<Order> {
    return this.#supports.ordersPage(offset, limit, order);
  }

  subscribersPage(offset: number, limit: number, order: ListOrder): Page<Subscriber> {
    return this.#subscribers.page(offset, limit, order);
  }

  wallPage(offset: number, limit: number, order: ListOrder): Page<WallPost> {
    return this.#wall.page(offset, limit, order);
  }

  /** Blog posts of one type; supporter-only posts are redacted unless `entitled`. */
  blogPage(
    type: 'text' | 'story',
    offset: number,
    limit: number,
    order: ListOrder,
    entitled: boolean,
  ): Page<BlogPost> {
    return this.#blog.page(type, offset, limit, order, entitled);
  }

  snapshot(): ProjectSnapshot {
    const all = Number.MAX_SAFE_INTEGER;
    const view = this.#rewardViewContext();
    return {
      project: this.projectView(true),
      rewards: this.#rewards.all().map((r) => rewardDetailView(r, view)),
      fundings: this.fundingsPage(0, all, 'oldest-first').items,
      wall: this.wallPage(0, all, 'oldest-first').items,
      blog: this.#blog.all(),
      orders: this.ordersPage(0, all, 'oldest-first').items,
      subscribers: this.subscribersPage(0, all, 'oldest-first').items,
      failedSupports: this.#supports.failedKeys(),
      history: [...this.#history],
    };
  }

  // ---------------------------------------------------------------- internals

  #rewardViewContext(): RewardViewContext {
    return {
      project: this,
      publicBaseUrl: this.#ctx.publicBaseUrl,
      fundingCents: this.#supports.fundingCents,
    };
  }

  #afterFundingChange(at: number): void {
    const fundingCents = this.#supports.fundingCents;
    this.#rewards.unlockReached(fundingCents, at);
    this.#progress.update(fundingCents, this.fundingThreshold, at);
  }
}
