import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSecretKind, REDACTED } from '../../src/lib/scrub-secrets.js';
import { SECRET_PIECE_LENGTH, SecretRedactor } from '../../src/lib/secret-redactor.js';

const KEY = 'svc_proj_Q7m2Zr9Lk4Vx8Wp1Nt6Hs3Jd5Fb0';
const BARE = KEY.slice('svc_proj_'.length);
const SIGNING = '8f742231b10e8888abcd99aa85a5ffee';

/** Every piece of SECRET_PIECE_LENGTH characters of `secret`. */
function piecesOf(secret: string): string[] {
  return Array.from({ length: secret.length - SECRET_PIECE_LENGTH + 1 }, (_, i) =>
    secret.slice(i, i + SECRET_PIECE_LENGTH),
  );
}

function expectNoPiece(text: string, secret: string): void {
  for (const piece of piecesOf(secret)) expect(text).not.toContain(piece);
}

describe('SecretRedactor', () => {
  const redactor = new SecretRedactor();
  redactor.register(KEY, SIGNING, undefined);

  it('removes a registered secret whole, without its prefix, and in a JSON string', () => {
    expect(redactor.redact(`key ${KEY} end`)).toBe(`key ${REDACTED} end`);
    expect(redactor.redact(`you sent ${BARE}.`)).toBe(`you sent ${REDACTED}.`);
    expect(redactor.redact(JSON.stringify({ echo: `x${SIGNING}y` }))).toBe(`{"echo":"x${REDACTED}y"}`);
  });

  it('removes any piece of 16 or more characters of a secret, wherever it sits in the text', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(KEY, SIGNING),
        fc.nat(),
        fc.integer({ min: SECRET_PIECE_LENGTH, max: 40 }),
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        (secret, from, length, before, after) => {
          const start = from % (secret.length - SECRET_PIECE_LENGTH + 1);
          const piece = secret.slice(start, start + length);
          const out = redactor.redact(`${before}${piece}${after}`);
          expectNoPiece(out, secret);
          expect(out).toContain(REDACTED);
        },
      ),
    );
  });

  it('merges overlapping and adjacent echoes into one replacement, and keeps the text around them', () => {
    const text = `a ${BARE.slice(0, 20)}${BARE.slice(5, 25)} b ${SIGNING.slice(3, 19)} c`;
    expect(redactor.redact(text)).toBe(`a ${REDACTED} b ${REDACTED} c`);
  });

  it('leaves pieces shorter than 16 characters and ordinary text alone', () => {
    const short = BARE.slice(0, SECRET_PIECE_LENGTH - 1);
    expect(redactor.redact(`x ${short} y`)).toBe(`x ${short} y`);
    expect(redactor.redact('3 new supporters, funding 1.234,00 EUR')).toBe(
      '3 new supporters, funding 1.234,00 EUR',
    );
    expect(redactor.reveals('nothing to see')).toBe(false);
  });

  it('still removes credential shapes that were never registered', () => {
    const unregistered = 'xoxb-1111111111-2222222222-AbCdEfGhIjKlMnOpQr';
    expect(redactor.redact(`token ${unregistered}`)).toBe(`token ${REDACTED}`);
    expect(findSecretKind(unregistered)).toBe('Slack token');
    expect(redactor.reveals(`Authorization: Bearer abc`)).toBe(true);
  });

  it('ignores values too short to be secrets, and secrets shorter than a piece are matched whole', () => {
    const own = new SecretRedactor();
    own.register('abc', 'svc_user_abc', 'shortSecret1');
    expect(own.redact('abc and shortSecret1 and svc_user_abc')).toBe(`abc and ${REDACTED} and ${REDACTED}`);
  });
});

describe('credential shapes', () => {
  it('removes the token of a Discord interaction or webhook URL and keeps the rest of the URL', () => {
    const url =
      'https://discord.com/api/v10/webhooks/123456789/aW50ZXJhY3Rpb246MTIzNDU2Nzg5/messages/@original';
    expect(new SecretRedactor().redact(url)).toBe(
      `https://discord.com/api/v10/webhooks/123456789/${REDACTED}/messages/@original`,
    );
    expect(findSecretKind('/interactions/42/abcDEF123/callback')).toBe(
      'Discord interaction or webhook token',
    );
  });
});
