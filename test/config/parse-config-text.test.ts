import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/parse-config-text.js';

// Plain JSON is read with JSON.parse, anything else with jsonc-parser: both ways must give the same value.
describe('parseConfigText: plain JSON and JSON with comments read alike', () => {
  const cases = [
    '{"projects":[{"linkCaption":"a","apiKeyEnv":"A_KEY","milestones":[10,50.5,-1e3]}],"x":null,"y":true}',
    '{"__proto__":{"polluted":1},"a":"\\u00e9\\n\\ud83d\\ude00"}',
    '{"a":1,"b":2,"a":3}',
    ' \t\r\n{"deep":[[[[[[[[[[[[[[["fifteen"]]]]]]]]]]]]]]]} \n',
  ];
  it.each(cases)('%s', (plain) => {
    const strict = parseConfigText(plain);
    // A comment up front makes it JSON with comments: the jsonc-parser way.
    const withComment = parseConfigText(`// a comment\n${plain}`);
    expect(strict.ok).toBe(true);
    expect(withComment).toEqual(strict);
    if (!strict.ok) return;
    expect(Object.keys(strict.value as object)).toEqual(Object.keys(JSON.parse(plain)));
    expect(Object.getPrototypeOf(strict.value)).toBe(Object.prototype);
  });

  it('a file one level past the limit is refused the same way with or without comments', () => {
    const deep = `{"x":${'['.repeat(16)}${']'.repeat(16)}}`;
    const strict = parseConfigText(deep);
    expect(strict).toMatchObject({ ok: false, kind: 'too-deep', line: 1, column: 21 });
    expect(parseConfigText(`${deep}//`)).toEqual(strict);
  });
});
