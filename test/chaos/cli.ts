/**
 * `npm run chaos -- --seed 12345`: replays one chaos seed on the virtual clock and prints its verdict (exit 1 when
 * an invariant failed). `--seeds 1..50` runs a range; `--trace <text>` prints every request, delivery record write
 * and log line that mentions the text (an event id, a supporter's name, a channel); `--log` prints the processes'
 * warnings and errors; `--digest` prints a hash of the seed's whole trace (trace-digest.ts): two runs of a seed
 * must print the same. `--real-bot` runs the seed on the running bot instead (real-bot/run-real-bot.ts;
 * `--compiled` starts `dist/src/main.js`, built first, instead of `src/main.ts`).
 */
import { parseArgs } from 'node:util';
import { realBotRunner } from './real-bot/cli-runner.js';
import { runSeed, type SeedRun, seedReport } from './run-seed.js';
import { traceDigest } from './trace-digest.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    seeds: { type: 'string' },
    trace: { type: 'string' },
    log: { type: 'boolean', default: false },
    digest: { type: 'boolean', default: false },
    'real-bot': { type: 'boolean', default: false },
    compiled: { type: 'boolean', default: false },
  },
});

function seedsToRun(): number[] {
  if (values.seed !== undefined) return [Number(values.seed)];
  const range = /^(\d+)\.\.(\d+)$/.exec(values.seeds ?? '');
  if (!range) throw new Error('say which seed: --seed 12345, or --seeds 1..50');
  const [from, to] = [Number(range[1]), Number(range[2])];
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function trace(run: SeedRun, text: string): string[] {
  const { record, schedule } = run;
  const at = (ms: number | undefined) =>
    ms === undefined ? '-' : `+${((ms - schedule.start) / 1000).toFixed(1)}s`;
  const lines: { at: number; line: string }[] = [];
  for (const e of record.journal) {
    if (![e.key, e.channel, e.text].some((v) => v.includes(text))) continue;
    lines.push({
      at: e.at,
      line: `${at(e.at)} ${e.process} ${e.platform} ${e.category}${e.postKind ? `/${e.postKind}` : ''} ${e.channel} ${e.key.slice(0, 60)} fault=${e.fault}${e.retryAfterMs ? ` retry=${e.retryAfterMs}` : ''} processed=${at(e.processedAt)}(${e.processedStatus ?? '-'}) answered=${at(e.answeredAt)}`,
    });
  }
  for (const w of record.deliveryWrites) {
    if (decodeURIComponent(w.key).includes(text))
      lines.push({
        at: w.at,
        line: `${at(w.at)} ledger ${decodeURIComponent(w.key).slice(0, 90)} ${w.state}`,
      });
  }
  for (const e of record.timeline.events) {
    if (e.text.includes(text) || e.id.includes(text))
      lines.push({
        at: e.at,
        line: `${at(e.at)} channel ${e.channel} ${e.change} ${e.role} ${e.id}: ${e.text
          .split('\n')
          .filter((l) => /\p{L}/u.test(l))
          .slice(0, 3)
          .join(' | ')
          .slice(0, 120)}`,
      });
  }
  for (const l of record.log) if (l.includes(text)) lines.push({ at: Number.NaN, line: `log ${l}` });
  return lines.sort((a, b) => a.at - b.at).map((l) => l.line);
}

const realBot = values['real-bot'];
const runOne = realBot ? await realBotRunner(values.compiled) : runSeed;
let failed = 0;
for (const seed of seedsToRun()) {
  const run = await runOne(seed);
  const f = run.verdict.figures;
  const ok = run.verdict.violations.length === 0;
  if (!ok) failed += 1;
  process.stdout.write(
    `${ok ? '✓' : '✗'} seed ${seed}: ${f.supporters} supporters, ${f.duplicates} duplicates, ${f.misses} misses, stall ${f.maxStallMs} ms, doubt ${f.maxDoubtMs} ms, second copy ${f.maxSecondCopyMs} ms (${run.wallMs} ms)\n`,
  );
  if (values.digest) process.stdout.write(`  trace digest ${traceDigest(run.record, run.verdict)}\n`);
  if (!ok) process.stdout.write(`${seedReport(run, realBot)}\n`);
  if (values.trace) process.stdout.write(`${trace(run, values.trace).join('\n')}\n`);
  if (values.log) process.stdout.write(`${run.record.log.join('\n')}\n`);
}
// Exit explicitly: a failing seed's world can leave one real-clock timer behind (not yet found), and a replay must not
// hang after its verdict.
process.exit(failed > 0 ? 1 : 0);
