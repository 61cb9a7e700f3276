/**
 * Bench section: the cost of text an attacker or a broken server controls.
 * - scrubHostile20kMs: the slowest of the hostile texts below at 20,000 characters, scrubbed
 *   by the one redactor with a registered key (median of 5). Was 650-2,900 ms (quadratic
 *   patterns; a 20,000-character API error held the bot for 6 s); target: a few ms.
 * - scrubHostileCapMs: the same at the cap (MAX_REDACTED_CHARS); anything longer is cut first.
 * - scrubLinearity: capMs / 20kMs over the length ratio (about 1 when linear; 3 when quadratic).
 */
import { MAX_REDACTED_CHARS, SecretRedactor } from '../src/lib/secret-redactor.js';
import type { BenchSection, Figures } from './section.js';

/** Runs of the characters the credential shapes are made of: the worst case of a backtracking pattern. */
const shapes = ['a', 'aB3-_', 'ab+.-', '1', 'svc_proj_:'];

function hostileTexts(length: number): string[] {
  return shapes.map((unit) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
}

function medianMs(work: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[2] ?? 0;
}

function slowestMs(redactor: SecretRedactor, length: number): number {
  return Math.max(...hostileTexts(length).map((text) => medianMs(() => redactor.redact(text))));
}

export const hostileInputSection: BenchSection = {
  name: 'hostile input',
  async run(): Promise<Figures> {
    const redactor = new SecretRedactor();
    redactor.register('svc_proj_Q7m2Zr9Lk4Vx8Wp1Nt6Hs3Jd5Fb0');
    // Once unmeasured: the regexes compile and the JIT warms up on the first texts.
    slowestMs(redactor, 2_000);
    const ms20k = slowestMs(redactor, 20_000);
    const msCap = slowestMs(redactor, MAX_REDACTED_CHARS);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return {
      scrubHostile20kMs: round(ms20k),
      scrubHostileCapMs: round(msCap),
      scrubLinearity: round(msCap / ms20k / (MAX_REDACTED_CHARS / 20_000)),
    };
  },
};
