import { runSeed, seedReport } from '/work/wt/i29-stream/test/chaos/run-seed.ts';
const run = await runSeed(Number(process.argv[2] ?? 39));
console.log(seedReport(run));
console.log(JSON.stringify(run.verdict.figures));
