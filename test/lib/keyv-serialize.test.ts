import { defaultDeserialize, defaultSerialize } from '@keyv/serialize';
import { describe, expect, it } from 'vitest';
import { keyvSerialize } from '../../src/lib/keyv-serialize.js';
import { seededRandom } from '../../src/lib/random.js';

/** Text built from the characters that matter to JSON and to keyv's ':' escape. */
function hostileText(next: () => number): string {
  const alphabet = [':', '"', ',', '[', ']', '{', '}', '\\', 'a', ' ', 'é', '\n', ':base64:', 'Buffer'];
  let text = '';
  const length = Math.floor(next() * 8);
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
  return text;
}

/** A JSON value of the shapes fundbot stores (objects, arrays, strings, numbers, null), keys hostile too. */
function hostileValue(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 4 : 6));
  if (pick === 0) return hostileText(next);
  if (pick === 1) return Math.round(next() * 1e6) / 100;
  if (pick === 2) return null;
  if (pick === 3) return next() < 0.5;
  if (pick === 4) return Array.from({ length: Math.floor(next() * 4) }, () => hostileValue(next, depth + 1));
  const record: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 4); i > 0; i--) record[hostileText(next)] = hostileValue(next, depth + 1);
  return record;
}

describe('keyvSerialize: keyv’s serializer at native speed', () => {
  it('writes exactly what keyv’s own serializer writes, for hostile strings and keys', () => {
    const cases: unknown[] = [
      { value: { lists: { fundings: { entries: [{ id: 1, user: { name: 'Ann' } }] } } }, expires: undefined },
      { value: ':starts with a colon', expires: 1 },
      { value: ['a', ':b', '::c', ':base64:AAAA'], expires: null },
      { value: { 'key:': ':v', 'k,': 'x', '[': { '{': ':' } } },
      { value: 'a wall post quoting "x": y, [z]: w' },
      ':top',
      'plain',
      null,
      undefined,
      { value: { skipped: undefined, kept: 0 } },
      { value: Buffer.from('bytes') },
    ];
    for (const value of cases) expect(keyvSerialize(value)).toBe(defaultSerialize(value));
  });

  it('agrees with keyv’s serializer and reads back through keyv’s deserializer on 5,000 random values', () => {
    const random = seededRandom(22);
    const next = () => random.next();
    for (let i = 0; i < 5_000; i++) {
      const data = { value: hostileValue(next), expires: next() < 0.5 ? undefined : 1_700_000_000_000 };
      const text = keyvSerialize(data);
      expect(text).toBe(defaultSerialize(data));
      expect(defaultDeserialize(text)).toEqual(JSON.parse(JSON.stringify(data)));
    }
  });
});
