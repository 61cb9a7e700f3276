import type { CommandRun } from './command-run.js';

/** /subscriptions: the channel's pings and filters, one line each (none: nothing). */
export async function noticeRulesLines(run: CommandRun): Promise<string[]> {
  const rules = await run.deps.noticeRules?.get(run.invocation.context.channel);
  if (!rules) return [];
  const t = run.t.noticeRules;
  const lines: string[] = [];
  if (rules.ping) lines.push(t.pingLine(run.t.common.list(rules.ping.kinds)));
  if (rules.wall) lines.push(t.wallLine(quoted(rules.wall.allow), quoted(rules.wall.deny)));
  if (rules.milestoneLevels)
    lines.push(t.levelsLine(run.t.common.list(rules.milestoneLevels.map((l) => `${l}%`))));
  return lines;
}

/** Keywords shown back: in quotes, plain text (the renderers escape them). */
export function quoted(words: readonly string[] | undefined): string {
  return (words ?? []).map((w) => `"${w}"`).join(', ');
}
