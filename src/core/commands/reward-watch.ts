import { isPubliclyVisible, isSoldOut } from '../../api/index.js';
import { rewardWatchesPerUser } from '../../domain/reward-watch.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { CommandRefusal } from '../command-refusal.js';
import type { NeutralMessage } from '../message.js';
import { resolveProject } from '../resolve-project.js';
import { type CommandRun, readOrRefuse, typedCommand } from './command-run.js';

/**
 * /watch reward <id> [project] and /unwatch reward <id> [project] (issue 32, item 3c): any member asks for ONE
 * direct message when a sold-out reward can be ordered again (src/delivery/reward-watch-dms.ts sends it and ends the
 * watch). `/watch` alone lists the member's watches. Every answer is private; only the user id is stored.
 */
export async function watchCommand(run: CommandRun): Promise<NeutralMessage> {
  const texts = run.t.rewardWatch;
  const store = run.deps.rewardWatches;
  if (!store) return { text: run.t.errors.internal, tone: 'error', private: true };
  const { channel, user } = run.invocation.context;
  const given = rewardArgument(run);
  if (given.text === '') {
    const watches = await store.ofUser(channel, user.id);
    if (watches.length === 0)
      return { text: texts.none(typedCommand(run, 'watch')), tone: 'info', private: true };
    return {
      title: texts.listTitle,
      text: watches.map((w) => `• ${texts.listLine(w.rewardId, w.project)}`).join('\n'),
      footer: texts.listFooter,
      tone: 'info',
      private: true,
    };
  }
  const id = rewardIdOf(run, given.text);
  const project = await resolveProject(withProject(run, given.project));
  const notFound = () =>
    run.t.rewards.notFound(id, singleLine(project.title, limits.title), typedCommand(run, 'rewards'));
  const reward = (
    await readOrRefuse(
      run,
      () => run.deps.readModel.reward(project.linkCaption, id, run.freshness.rewardMs),
      notFound,
    )
  ).value;
  if (!isPubliclyVisible(reward)) throw new CommandRefusal(notFound);
  const title = singleLine(reward.title, limits.title) || run.t.common.untitled;
  if (!isSoldOut(reward)) return { text: texts.availableNow(title), tone: 'info', private: true };
  const watch = { userId: user.id, channelId: channel.channelId, project: project.linkCaption, rewardId: id };
  switch (await store.add(channel, watch)) {
    case 'added':
      return { text: texts.added(title, project.linkCaption), tone: 'success', private: true };
    case 'already':
      return { text: texts.already(title), tone: 'info', private: true };
    case 'user-full':
      return {
        text: texts.userFull(rewardWatchesPerUser, typedCommand(run, 'unwatch')),
        tone: 'error',
        private: true,
      };
    case 'workspace-full':
      return { text: texts.workspaceFull, tone: 'error', private: true };
  }
}

export async function unwatchCommand(run: CommandRun): Promise<NeutralMessage> {
  const texts = run.t.rewardWatch;
  const store = run.deps.rewardWatches;
  if (!store) return { text: run.t.errors.internal, tone: 'error', private: true };
  const { channel, user } = run.invocation.context;
  const given = rewardArgument(run);
  const id = rewardIdOf(run, given.text);
  const project = await resolveProject(withProject(run, given.project), { allowSubscribed: true });
  const removed = await store.remove(channel, {
    userId: user.id,
    project: project.linkCaption,
    rewardId: id,
  });
  return removed
    ? { text: texts.removed(id, project.linkCaption), tone: 'success', private: true }
    : { text: texts.notWatching(id, project.linkCaption), tone: 'info', private: true };
}

/**
 * The reward argument as typed: Slack and the console give the rest of the text (`reward 301 [project]`), Discord
 * the option's value (`301`) with the project in its own option. The word "reward" is optional.
 */
function rewardArgument(run: CommandRun): { text: string; project: string | undefined } {
  const words = String(run.invocation.options['reward'] ?? '')
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words[0]?.toLowerCase() === 'reward') words.shift();
  const option = run.invocation.options['project'];
  const project = typeof option === 'string' && option.trim() !== '' ? option : words[1];
  return { text: words[0] ?? '', project };
}

function rewardIdOf(run: CommandRun, text: string): number {
  const id = /^#?\d{1,15}$/.test(text) ? Number(text.replace('#', '')) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new CommandRefusal((t) =>
      t.rewardWatch.badId(singleLine(text, limits.name), typedCommand(run, 'watch')),
    );
  }
  return id;
}

function withProject(run: CommandRun, project: string | undefined): CommandRun {
  if (project === undefined) return run;
  return { ...run, invocation: { ...run.invocation, options: { ...run.invocation.options, project } } };
}
