import { z } from 'zod';
import type { FundbotEvent } from '../domain/events.js';
import type { KeyValueStore } from '../lib/store.js';

const dayMs = 24 * 60 * 60 * 1000;
/** A month's roll-call reads back at most 31 days (plus a late one): older days expire by themselves. */
const keepMs = 40 * dayMs;

/** One supporter as the journal keeps them: the entry's stable key, the public display name, when fundbot saw it. */
export interface JournalSupporter {
  readonly key: string;
  readonly name: string;
  readonly at: number;
}

const daySchema = z.object({
  supporters: z.array(z.object({ key: z.string(), name: z.string(), at: z.number() })),
  dropped: z.array(z.string()),
});
type JournalDay = z.infer<typeof daySchema>;

/**
 * Every supporter a roll-call names (issue 32, item 5). The engine keeps only the newest 500 supports and a month
 * can bring more, so the supporter events the outbox offers are written down here, one key per project and UTC day
 * (`roll-call/<project>/<YYYY-MM-DD>`, ~60 bytes a supporter, kept 40 days). An event offered again is recognised
 * by its entry key; a support dropped later (a failed payment) is struck, so it is never thanked.
 * Cost: one read and, when something is new, one write per offer that carries supporters; nothing otherwise.
 */
export interface RollCallJournal {
  record(project: string, events: readonly FundbotEvent[]): Promise<void>;
  /** The supporters seen in `(after, until]`, oldest first, without the dropped ones. */
  supportersBetween(project: string, after: number, until: number): Promise<JournalSupporter[]>;
  /** Deletes the project's journal (its supporters' names) when fundbot stops watching it; the keys removed. */
  forget(project: string): Promise<number>;
}

export function createRollCallJournal(store: KeyValueStore): RollCallJournal {
  const key = (project: string, day: string) => `roll-call/${encodeURIComponent(project)}/${day}`;
  const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

  return {
    async record(project, events) {
      const byDay = new Map<string, { supporters: JournalSupporter[]; dropped: string[] }>();
      const dayFor = (at: number) => {
        const day = dayOf(at);
        const entry = byDay.get(day) ?? { supporters: [], dropped: [] };
        byDay.set(day, entry);
        return entry;
      };
      for (const event of events) {
        if (event.type === 'supporter') {
          const at = event.detectedAt;
          dayFor(at).supporters.push({ key: event.entryKey ?? event.id, name: event.displayName, at });
        } else if (event.type === 'supporter-burst') {
          // Names newest first, entry keys oldest first (feed-events.ts): paired oldest first.
          const names = [...event.displayNames].reverse();
          names.forEach((name, i) => {
            const key = event.entryKeys?.[i] ?? `${event.id}#${i}`;
            dayFor(event.detectedAt).supporters.push({ key, name, at: event.detectedAt });
          });
        } else if (event.type === 'support-dropped') {
          dayFor(event.detectedAt).dropped.push(event.entryKey);
        }
      }
      for (const [day, fresh] of byDay) {
        const stored: JournalDay = (await store.get(key(project, day), daySchema)) ?? {
          supporters: [],
          dropped: [],
        };
        const known = new Set(stored.supporters.map((s) => s.key));
        const added = fresh.supporters.filter((s) => !known.has(s.key) && known.add(s.key));
        const struck = fresh.dropped.filter((k) => !stored.dropped.includes(k));
        if (added.length === 0 && struck.length === 0) continue;
        await store.set(
          key(project, day),
          { supporters: [...stored.supporters, ...added], dropped: [...stored.dropped, ...struck] },
          keepMs,
        );
      }
    },

    async supportersBetween(project, after, until) {
      const days: JournalDay[] = [];
      for (let at = Date.parse(dayOf(after)); at <= until; at += dayMs) {
        const day = await store.get(key(project, dayOf(at)), daySchema);
        if (day) days.push(day);
      }
      const dropped = new Set(days.flatMap((d) => d.dropped));
      return days
        .flatMap((d) => d.supporters)
        .filter((s) => s.at > after && s.at <= until && !dropped.has(s.key))
        .sort((a, b) => a.at - b.at);
    },

    forget: (project) => store.deletePrefix(`roll-call/${encodeURIComponent(project)}/`),
  };
}
