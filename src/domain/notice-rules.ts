/**
 * A channel's pings and filters (issue 32, item 6), pure: which notices a channel drops by its filters (wall
 * keywords to allow or deny, milestone levels), and which admin-chosen group a notice pings. The ping is only
 * ever the id an admin chose, added by the renderer beside the notice; user text never pings.
 */
import type { FundbotEvent, NoticeKind } from './events.js';

/** Keywords a filter keeps at most, and how long each may be. */
export const maxKeywords = 20;
export const maxKeywordLength = 40;

export interface NoticeRules {
  /** Who is pinged, on which kinds: a Discord role id or a Slack user group id. */
  readonly ping?: { readonly target: string; readonly kinds: readonly NoticeKind[] };
  /** Wall posts: only those naming one of `allow` (when any), never those naming one of `deny`. */
  readonly wall?: { readonly allow: readonly string[]; readonly deny: readonly string[] };
  /** Milestones: only these percentages (25, 50, 100…). */
  readonly milestoneLevels?: readonly number[];
}

/** The group a chat platform pings: a Discord role or a Slack user group, by id only. */
export type PingPlatform = 'discord' | 'slack' | 'console';

/**
 * The id of the group an admin named: Discord `<@&id>` (a role mention as the client inserts it) or the bare
 * role id; Slack `<!subteam^ID>` / `<!subteam^ID|@name>` or the bare user-group id (`S…`). Anything else, and
 * `@everyone`/`@here`/`<!channel>`, is no group: undefined.
 */
export function parsePingTarget(platform: PingPlatform, text: string): string | undefined {
  const given = text.trim();
  if (platform === 'discord') {
    const id = /^<@&(\d{17,20})>$/.exec(given)?.[1] ?? (/^\d{17,20}$/.test(given) ? given : undefined);
    return id;
  }
  if (platform === 'slack') {
    const id = /^<!subteam\^([A-Z0-9]{6,20})(?:\|[^<>]*)?>$/.exec(given)?.[1] ?? given;
    return /^S[A-Z0-9]{5,19}$/.test(id) ? id : undefined;
  }
  return undefined;
}

/** Keywords as a filter keeps them: lowercase, compatibility forms folded, split on spaces and commas, bounded. */
export function keywordsOf(words: string): string[] {
  const found = comparable(words)
    .split(/[\s,]+/)
    .filter((w) => w.length > 0)
    .map((w) => [...w].slice(0, maxKeywordLength).join(''));
  return [...new Set(found)].slice(0, maxKeywords);
}

/** Milestone levels as typed ("50 100", "50%,100%"): whole percentages from 1 to 1,000, each once, in order. */
export function milestoneLevelsOf(text: string): number[] | undefined {
  const parts = text.split(/[\s,]+/).filter((p) => p.length > 0);
  const levels = parts.map((p) => (/^\d{1,4}%?$/.test(p) ? Number.parseInt(p, 10) : Number.NaN));
  if (levels.length === 0 || levels.some((l) => !Number.isInteger(l) || l < 1 || l > 1_000)) return undefined;
  return [...new Set(levels)].sort((a, b) => a - b);
}

/** Whether the channel's filters let the notice through. Bursts carry no message text: they always pass. */
export function passesFilters(event: FundbotEvent, rules: NoticeRules | undefined): boolean {
  if (!rules) return true;
  if (event.type === 'wall-post' && rules.wall) {
    const text = comparable(event.message);
    if (rules.wall.deny.some((w) => text.includes(w))) return false;
    if (rules.wall.allow.length > 0 && !rules.wall.allow.some((w) => text.includes(w))) return false;
  }
  if (event.type === 'milestone' && rules.milestoneLevels && !rules.milestoneLevels.includes(event.percent))
    return false;
  return true;
}

/** The group a notice of this kind pings in the channel, if the admin chose one for it (never the "now watching"). */
export function pingFor(
  event: FundbotEvent,
  kind: NoticeKind,
  rules: NoticeRules | undefined,
): string | undefined {
  if (!rules?.ping || event.type === 'watching') return undefined;
  return rules.ping.kinds.includes(kind) ? rules.ping.target : undefined;
}

function comparable(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase('en');
}
