import {
  type Incentive,
  type IncentiveDetail,
  isPubliclyVisible,
  isSoldOut,
  type Project,
} from '../../api/index.js';
import { htmlToPlainText, safeHttpUrl, shorten, singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { CommandRefusal } from '../command-refusal.js';
import { formatNumber } from '../format.js';
import type { Catalog } from '../i18n/catalog.js';
import type { MessageField, MessageImage, NeutralMessage } from '../message.js';
import type { Cached } from '../ports.js';
import { projectUrl } from '../project-url.js';
import { resolveProject } from '../resolve-project.js';
import {
  type CommandRun,
  freshnessFooter,
  money,
  oldest,
  readOrRefuse,
  typedCommand,
} from './command-run.js';

/**
 * Stock in words. `is_available` is the one availability flag (it already
 * handles unlimited rewards); `quantity_remaining` is a 999 placeholder when
 * `quantity_total` is 0; `is_in_stock` is a shipping label and never consulted.
 */
export function stockText(run: CommandRun, reward: Incentive): string {
  const { t, locale } = run;
  if (isSoldOut(reward)) return t.common.soldOut;
  if (reward.quantity_total === 0) return t.common.unlimited;
  return t.common.left(
    formatNumber(Math.max(0, reward.quantity_remaining), locale),
    formatNumber(reward.quantity_total, locale),
  );
}

/** The locked line of a visible but not yet orderable reward, or undefined when it can be ordered. */
export function lockText(
  run: CommandRun,
  reward: Incentive,
  currency: string | undefined,
): string | undefined {
  if (reward.is_unlocked) return undefined;
  const missing = reward.funding_amount_until_unlock;
  return typeof missing === 'number' && missing > 0
    ? run.t.rewards.lockedMissing(money(run, missing, currency))
    : run.t.rewards.lockedUntilGoal;
}

/** The first gallery entry that is an image; the deprecated `image` field is never used. */
export function rewardImage(reward: Incentive, alt: string): MessageImage | undefined {
  const first = reward.gallery_images.find((f) => f.is_image);
  const url = safeHttpUrl(first?.thumbnails?.['1x']);
  return url ? { kind: 'url', url, alt } : undefined;
}

/** Reads the project for its title and currency; rewards still answer when only that read fails. */
async function projectInfo(run: CommandRun, linkCaption: string): Promise<Cached<Project> | undefined> {
  return run.deps.readModel.project(linkCaption, run.freshness.projectInfoMs).catch(() => undefined);
}

function currencyOf(project: Cached<Project> | undefined, rewards: readonly Incentive[]): string | undefined {
  // The spec puts the currency on the project; the embedded project of a reward carries it too.
  return project?.value.currency ?? rewards.find((r) => r.project?.currency)?.project?.currency;
}

/** /rewards: the publicly visible rewards, with price, stock and lock state. */
export async function rewardsCommand(run: CommandRun): Promise<NeutralMessage> {
  const { t } = run;
  const watched = await resolveProject(run);
  const [project, rewards] = await Promise.all([
    projectInfo(run, watched.linkCaption),
    readOrRefuse(
      run,
      () => run.deps.readModel.rewards(watched.linkCaption, run.freshness.rewardsMs),
      (tt) => tt.errors.projectNotFound(singleLine(watched.linkCaption, limits.title)),
    ),
  ]);
  const currency = currencyOf(project, rewards.value);
  const projectTitle = singleLine(project?.value.title || watched.title, limits.title);
  const visible = rewards.value.filter(isPubliclyVisible);
  const shown = visible.slice(0, limits.rewardsShown);

  const fields: MessageField[] = shown.map((reward) => {
    const lines = [`${t.rewards.idLine(reward.id)} · ${stockText(run, reward)}`];
    const locked = lockText(run, reward, currency);
    if (locked) lines.push(locked);
    const description = singleLine(htmlToPlainText(reward.description), limits.rewardListDescription);
    if (description) lines.push(description);
    return {
      name: `${singleLine(reward.title, limits.title)} · ${money(run, reward.price, currency)}`,
      value: lines.join('\n'),
      inline: false,
    };
  });

  const hidden = visible.length - shown.length;
  const text =
    visible.length === 0
      ? t.rewards.noneVisible
      : hidden > 0
        ? t.rewards.andMore(hidden, typedCommand(run, 'reward'))
        : undefined;
  const url = project ? projectUrl(project.value, run.locale) : undefined;
  return {
    title: t.rewards.title(projectTitle),
    ...(url ? { titleUrl: url } : {}),
    ...(text ? { text } : {}),
    fields,
    footer: freshnessFooter(run, oldest(rewards, project)),
    tone: oldest(rewards, project).staleBecause !== undefined ? 'warning' : 'info',
  };
}

/** Variation groups as fields: fixed choices by position, "free text" for an empty choice list, unused groups skipped. */
export function variationFields(t: Catalog, reward: IncentiveDetail): MessageField[] {
  const groups = [
    [reward.variant_label_1, reward.variant_choices_1],
    [reward.variant_label_2, reward.variant_choices_2],
    [reward.variant_label_3, reward.variant_choices_3],
  ] as const;
  const fields: MessageField[] = [];
  for (const [label, choices] of groups) {
    if (label === null) continue;
    const name = singleLine(label, limits.title) || '—';
    if (choices.length === 0) {
      fields.push({ name, value: t.rewards.freeText, inline: true });
      continue;
    }
    const names = [...choices]
      .sort((a, b) => a.position - b.position)
      .map((c) => singleLine(c.name, limits.choice))
      .filter((c) => c !== '');
    const listed = names.slice(0, limits.choicesShown).join(', ');
    const value =
      names.length > limits.choicesShown
        ? t.common.andMore(listed, names.length - limits.choicesShown)
        : listed;
    fields.push({ name, value: value || t.rewards.freeText, inline: true });
  }
  return fields;
}

/** /reward <id>: one visible reward in detail; a hidden one answers exactly like a missing one. */
export async function rewardCommand(run: CommandRun): Promise<NeutralMessage> {
  const { t } = run;
  const id = run.invocation.options['id'];
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
    throw new CommandRefusal((tt) =>
      tt.errors.invalidInteger('id', singleLine(String(id ?? ''), limits.name)),
    );
  }
  const watched = await resolveProject(run);
  const notFound = (tt: Catalog) =>
    tt.rewards.notFound(id, singleLine(watched.title, limits.title), typedCommand(run, 'rewards'));
  const [project, cached] = await Promise.all([
    projectInfo(run, watched.linkCaption),
    readOrRefuse(
      run,
      () => run.deps.readModel.reward(watched.linkCaption, id, run.freshness.rewardMs),
      notFound,
    ),
  ]);
  const reward = cached.value;
  if (!isPubliclyVisible(reward)) throw new CommandRefusal(notFound);

  const currency = currencyOf(project, [reward]);
  const title = singleLine(reward.title, limits.title);
  const locked = lockText(run, reward, currency);
  const fields: MessageField[] = [
    { name: t.rewards.fieldPrice, value: money(run, reward.price, currency), inline: true },
    { name: t.rewards.fieldStock, value: stockText(run, reward), inline: true },
    { name: t.rewards.fieldState, value: locked ?? t.rewards.available, inline: true },
    ...variationFields(t, reward),
  ];
  const description = shorten(htmlToPlainText(reward.description), limits.rewardDescription);
  const url = safeHttpUrl(reward.url);
  const image = rewardImage(reward, title);
  return {
    title,
    ...(url ? { titleUrl: url, links: [{ label: t.rewards.openReward, url }] } : {}),
    ...(description ? { text: description } : {}),
    fields,
    ...(image ? { image } : {}),
    ...(isSoldOut(reward) ? { badge: t.common.soldOut } : locked ? { badge: t.common.locked } : {}),
    footer: freshnessFooter(run, oldest(cached, project)),
    tone: oldest(cached, project).staleBecause !== undefined ? 'warning' : 'info',
  };
}
