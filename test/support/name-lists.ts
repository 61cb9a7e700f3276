/**
 * Reading the names a batch or catch-up message lists, as a reader would: the name
 * line of the message ("A, B and 312 more, all named in the thread") and the plain
 * lists of its follow-ups ("C, D, E"). Names in these tests contain no comma.
 */

/** The names one line lists, and how many it says are named elsewhere. */
export function namesOfLine(line: string): { readonly names: string[]; readonly more: number } {
  const counted = /^(.*) and ([\d,]+) more, all named (?:in the thread|below)$/.exec(line);
  const list = counted?.[1] ?? line;
  return { names: list.split(', '), more: counted ? Number(counted[2]?.replace(/,/g, '')) : 0 };
}

/** The count a batch title states: "🎉 120 new supporters since 00:00" → 120. */
export function countOfTitle(title: string): number {
  const stated = /([\d,]+) new /.exec(title);
  if (!stated?.[1]) throw new Error(`no count in the title "${title}"`);
  return Number(stated[1].replace(/,/g, ''));
}

/** The supporters' names of a campaign test: long enough that a few dozen fill a message. */
export const longNames = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `Supporter number ${String(i + 1).padStart(3, '0')} of the kiosk`);
