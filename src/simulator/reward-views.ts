/**
 * The wire shapes of a reward: the `incentives` item, its detail with variation
 * fields, and the `/user/me/incentives` entry. Pure functions of a reward record and
 * the project's live state, so the catalog keeps only state and rules.
 */
import type { Incentive, IncentiveDetail, OwnIncentive } from '../api/schemas/index.js';
import type { ProjectFacts } from './project-context.js';
import {
  isAvailable,
  type RewardRecord,
  remainingOf,
  unlockThresholdOf,
  type VariantGroup,
} from './reward-catalog.js';
import { cents, fromCents } from './wire-units.js';

/** What a reward view reads beyond the reward itself. */
export interface RewardViewContext {
  readonly project: ProjectFacts;
  readonly publicBaseUrl: string;
  /** The project's funding now, for `funding_amount_until_unlock`. */
  readonly fundingCents: number;
}

/** An item of `/user/me/incentives` with the sort keys the server needs. */
export interface OwnIncentiveEntry {
  item: OwnIncentive;
  sold: number;
  createdAt: number;
  favorite: boolean;
}

export function rewardView(
  reward: RewardRecord,
  view: RewardViewContext,
): Incentive & Record<string, unknown> {
  const { project } = view;
  const threshold = unlockThresholdOf(reward, project.fundingThreshold);
  const result: Incentive & Record<string, unknown> = {
    id: reward.id,
    title: reward.title,
    description: reward.description,
    price: reward.price,
    quantity_total: reward.quantityTotal,
    quantity_remaining: remainingOf(reward),
    quantity_sold: reward.quantitySold,
    status: reward.status,
    address_required: reward.addressRequired,
    is_available: isAvailable(reward),
    is_unlocked: reward.unlocked,
    hidden_until_goal_reached: reward.hiddenUntilGoalReached,
    is_in_stock: reward.isInStock,
    url: `${view.publicBaseUrl}/${project.linkCaption}/rewards/${reward.id}`,
    gallery_images: reward.galleryImages.map((g) => ({ ...g })),
    image: null,
    project: {
      id: project.id,
      title: project.title,
      link_caption: project.linkCaption,
      currency: project.currency,
    },
  };
  if (threshold !== null) {
    result.funding_amount_until_unlock = reward.unlocked
      ? 0
      : fromCents(Math.max(0, cents(threshold) - view.fundingCents));
  }
  return result;
}

export function rewardDetailView(
  reward: RewardRecord,
  view: RewardViewContext,
): IncentiveDetail & Record<string, unknown> {
  const [g1, g2, g3] = reward.variants;
  const choices = (group: VariantGroup | null) => group?.choices.map((c) => ({ ...c })) ?? [];
  return {
    ...rewardView(reward, view),
    variant_label_1: g1?.label ?? null,
    variant_label_2: g2?.label ?? null,
    variant_label_3: g3?.label ?? null,
    variant_choices_1: choices(g1),
    variant_choices_2: choices(g2),
    variant_choices_3: choices(g3),
  };
}

/** The `/user/me/incentives` entries of a project: its enabled rewards, in id order. */
export function ownIncentiveEntries(
  rewards: readonly RewardRecord[],
  project: ProjectFacts,
): OwnIncentiveEntry[] {
  return rewards.filter((r) => r.status === 'enabled').map((r) => ownIncentiveEntry(r, project));
}

function ownIncentiveEntry(reward: RewardRecord, project: ProjectFacts): OwnIncentiveEntry {
  return {
    item: {
      id: reward.id,
      title: reward.title,
      price: reward.price,
      is_available: isAvailable(reward),
      quantity_total: reward.quantityTotal,
      quantity_remaining: remainingOf(reward),
      project: { id: project.id, title: project.title, link_caption: project.linkCaption },
    },
    sold: reward.quantitySold,
    createdAt: reward.createdAt,
    favorite: reward.favorite,
  };
}
