/**
 * Scrubbing text an attacker or a broken server controls: linear in the text's length,
 * and capped. Before, one shape could start at every character of a long run and scan to
 * its end: 20,000 letters took about 3 s, and a 20,000-character API error held the bot
 * for 6 s. The figure is `scrubHostile` in `npm run bench`; these tests guard the rules
 * (each hostile text at the cap would take tens of seconds with a quadratic pattern, far
 * past the test timeout, and takes tens of milliseconds now).
 */
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/lib/scrub-secrets.js';
import { SECRET_PIECE_LENGTH, SecretRedactor } from '../../src/lib/secret-redactor.js';

const KEY = 'svc_proj_Q7m2Zr9Lk4Vx8Wp1Nt6Hs3Jd5Fb0';
const DISCORD_TOKEN = 'MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWsAbCdEf';
/** The cap (MAX_REDACTED_CHARS), written out so this file also runs against code without it. */
const CAP = 64 * 1024;

/** Runs of the characters each credential shape is made of (the worst case of a backtracking pattern), and what scrubbing leaves. */
const hostile: Record<string, { readonly text: string; readonly out: string }> = {
  letters: { text: 'a'.repeat(CAP), out: 'a'.repeat(CAP) },
  'token characters': { text: 'aB3-_'.repeat(CAP / 5), out: 'aB3-_'.repeat(CAP / 5) },
  'dotted runs': {
    text: `${'x'.repeat(CAP / 2)}.${'y'.repeat(6)}.${'z'.repeat(CAP / 2 - 8)}`,
    out: REDACTED,
  },
  'URL scheme characters': { text: 'ab+.-'.repeat(CAP / 5), out: 'ab+.-'.repeat(CAP / 5) },
  'repeated key prefixes': { text: `${'svc_proj_:'.repeat(CAP / 10)}`, out: `${REDACTED}:` },
  'a webhook path with endless digits': {
    text: `/webhooks/${'1'.repeat(CAP - 10)}`,
    out: `/webhooks/${'1'.repeat(CAP - 10)}`,
  },
};

describe('scrubbing hostile text', () => {
  const redactor = new SecretRedactor();
  redactor.register(KEY);

  it.each(Object.entries(hostile))(
    'a text of %s as long as the cap is scrubbed at once',
    (_name, { text, out }) => {
      expect(redactor.redact(text)).toBe(out);
    },
  );

  it('cuts a text longer than the cap, says how much, and still removes the secrets before the cut', () => {
    const before = `error: the key ${KEY} was refused `;
    const huge = before + 'z'.repeat(10 * 1024 * 1024);
    const out = redactor.redact(huge);
    expect(out.length).toBeLessThan(CAP + 100);
    expect(out.startsWith(`error: the key ${REDACTED} was refused `)).toBe(true);
    expect(out).toMatch(/ …\[\d+ characters cut\]$/);
    const cut = Number(/\[(\d+) characters cut\]$/.exec(out)?.[1]);
    expect(cut).toBeGreaterThan(huge.length - CAP);
    expect(cut).toBeLessThan(huge.length - CAP + 300);
  });

  it('leaves no piece of a secret that straddles the cut, registered or only shaped like one', () => {
    for (const secret of [KEY, DISCORD_TOKEN]) {
      for (const keptChars of [1, 5, SECRET_PIECE_LENGTH - 1, SECRET_PIECE_LENGTH, 30]) {
        // Filler up to the cut, less `keptChars`: that many characters of the secret fall before the cut.
        const filler = `${'w '.repeat(CAP).slice(0, CAP - keptChars - 1)} `;
        const out = redactor.redact(`${filler}${secret}${' tail'.repeat(1000)}`);
        const head = out.replace(/ …\[\d+ characters cut\]$/, '');
        expect(head).not.toBe(out);
        expect(head).toMatch(/^(w )*w? ?$/);
      }
    }
  });

  it('a Discord token right after a JSON escape is removed and the escape kept whole', () => {
    const out = new SecretRedactor().redact(
      JSON.stringify({ m: `a\n${DISCORD_TOKEN}`, n: `é\u0007${DISCORD_TOKEN}` }),
    );
    expect(out).toBe(`{"m":"a\\n${REDACTED}","n":"é\\u0007${REDACTED}"}`);
    expect(() => JSON.parse(out)).not.toThrow();
  });
});
