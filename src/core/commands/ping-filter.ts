import { noticeKinds } from '../../domain/events.js';
import {
  keywordsOf,
  milestoneLevelsOf,
  type NoticeRules,
  parsePingTarget,
} from '../../domain/notice-rules.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import type { NeutralMessage } from '../message.js';
import { type CommandRun, typedCommand } from './command-run.js';
import { quoted } from './notice-rules-lines.js';
import { parseKinds } from './subscriptions.js';

/** The kinds pinged when /ping names none: the rare ones a team wants to hear about. */
const defaultPingKinds = ['milestones'] as const;

/**
 * /ping <@role|group id|off> [kinds] (Slack `/fundbot ping S0123ABCD milestones`): the group mentioned in this
 * channel's notices of the chosen kinds only (default milestones). Only the id is kept; the renderer adds the
 * mention beside the notice and allows exactly that one (Discord `allowed_mentions.roles`), so user text in a
 * notice still never pings. One store write; no platform request.
 */
export async function pingCommand(run: CommandRun): Promise<NeutralMessage> {
  const t = run.t.noticeRules;
  const settings = run.deps.noticeRules;
  if (!settings) return { text: run.t.errors.internal, tone: 'error', private: true };
  const { channel } = run.invocation.context;
  const given = String(run.invocation.options['target'] ?? '').trim();
  if (given.toLowerCase() === 'off') {
    await settings.update(channel, ({ ping: _, ...rest }) => rest);
    return { text: t.pingOff, tone: 'success', private: true };
  }
  const target = parsePingTarget(channel.platform, given);
  if (!target) {
    return {
      text: t.badTarget(singleLine(given, limits.name), channel.platform),
      tone: 'error',
      private: true,
    };
  }
  const raw = run.invocation.options['kinds'];
  const parsed = typeof raw === 'string' && raw.trim() ? parseKinds(raw) : [...defaultPingKinds];
  if (!Array.isArray(parsed)) {
    return {
      text: t.badKinds(
        singleLine(parsed.invalid.join(' '), limits.name),
        run.t.common.list([...noticeKinds]),
      ),
      tone: 'error',
      private: true,
    };
  }
  await settings.update(channel, (rules) => ({ ...rules, ping: { target, kinds: parsed } }));
  return { text: t.pingSet(run.t.common.list(parsed)), tone: 'success', private: true };
}

/**
 * /filter wall allow|deny <words…> | /filter milestones <levels…> | /filter <wall|milestones> off: which wall
 * posts and milestones this channel is told (the rule: src/domain/notice-rules.ts). A filtered notice shows as
 * "filtered" in /notices. One store write; no platform request.
 */
export async function filterCommand(run: CommandRun): Promise<NeutralMessage> {
  const t = run.t.noticeRules;
  const settings = run.deps.noticeRules;
  if (!settings) return { text: run.t.errors.internal, tone: 'error', private: true };
  const { channel } = run.invocation.context;
  const kind = String(run.invocation.options['kind'] ?? '')
    .trim()
    .toLowerCase();
  const rule = String(run.invocation.options['rule'] ?? '').trim();
  const [verb = '', ...rest] = rule.split(/\s+/);
  const bad = { text: t.badFilter(typedCommand(run, 'filter')), tone: 'error', private: true } as const;
  if (kind === 'wall') {
    if (verb.toLowerCase() === 'off') {
      await settings.update(channel, ({ wall: _, ...others }) => others);
      return { text: t.wallOff, tone: 'success', private: true };
    }
    const words = keywordsOf(rest.join(' '));
    if ((verb !== 'allow' && verb !== 'deny') || words.length === 0) return bad;
    const next = await settings.update(channel, (rules): NoticeRules => {
      const wall = rules.wall ?? { allow: [], deny: [] };
      return { ...rules, wall: { ...wall, [verb]: words } };
    });
    return {
      text: t.wallSet(quoted(next.wall?.allow), quoted(next.wall?.deny)),
      tone: 'success',
      private: true,
    };
  }
  if (kind === 'milestones') {
    if (verb.toLowerCase() === 'off') {
      await settings.update(channel, ({ milestoneLevels: _, ...others }) => others);
      return { text: t.levelsOff, tone: 'success', private: true };
    }
    const levels = milestoneLevelsOf(rule);
    if (!levels) return bad;
    await settings.update(channel, (rules) => ({ ...rules, milestoneLevels: levels }));
    return {
      text: t.levelsSet(run.t.common.list(levels.map((l) => `${l}%`))),
      tone: 'success',
      private: true,
    };
  }
  return bad;
}
