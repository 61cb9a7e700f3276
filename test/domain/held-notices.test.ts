/**
 * One figure for how long notices are held (issue 29): the "cannot post here" note said 7 days while the code
 * kept them 14 and the README promised 14. The code's TTLs, the channels' words (en, de) and the README's
 * sentences about held notices all come from, or are checked against, HELD_NOTICE_DAYS.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogFor, locales } from '../../src/core/index.js';
import { defaultDeliveryRecordTtlMs } from '../../src/delivery/delivery-ledger.js';
import { batchKeepMs } from '../../src/delivery/pacing/batch-store.js';
import { HELD_NOTICE_DAYS, heldNoticeMs } from '../../src/domain/held-notices.js';

describe('how long notices are held', () => {
  it('is one figure in the code: batches and delivery records live exactly that long', () => {
    expect(heldNoticeMs).toBe(HELD_NOTICE_DAYS * 86_400_000);
    expect(batchKeepMs).toBe(heldNoticeMs);
    expect(defaultDeliveryRecordTtlMs).toBeGreaterThanOrEqual(heldNoticeMs);
  });

  it.each(locales)('is the figure the "cannot post here" note tells a %s channel', (locale) => {
    const since = 'since-marker';
    const text = catalogFor(locale).access.cannotPost('the channel is archived.', since).replace(since, '');
    // Every number in the note is the figure: no other number of days beside it.
    const figures = [...text.matchAll(/\d+/g)].map((m) => Number(m[0]));
    expect(figures).toEqual([HELD_NOTICE_DAYS]);
  });

  it('is the figure the README promises wherever it speaks of held notices', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const sentences = readme.split(/(?<=\.)\s+/).filter((s) => /held/i.test(s) && /\bdays?\b/.test(s));
    expect(sentences.length).toBeGreaterThan(0);
    for (const sentence of sentences) {
      const days = [...sentence.matchAll(/(\d+) days?/g)].map((m) => Number(m[1]));
      expect(days, sentence).toEqual(days.map(() => HELD_NOTICE_DAYS));
    }
  });
});
