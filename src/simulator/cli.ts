/**
 * `npm run sim -- --port 4010 [--seed N] [--order oldest-first] [--rate 6] [--host 127.0.0.1]`
 *
 * Starts the simulator with the demo project in live real-time mode and prints
 * the base URL, the keys it issued and a curl line. These are throw-away keys of
 * a local simulator, which is why printing them is fine here (and only here).
 */
import { parseArgs } from 'node:util';
import { seededRandom } from '../lib/random.js';
import { demoLinkCaption, demoTeam } from './demo-project.js';
import { startLiveCampaign } from './scenario-live.js';
import { startSimulator } from './simulator.js';
import type { ListOrder } from './types.js';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      seed: { type: 'string', default: '1' },
      order: { type: 'string', default: 'newest-first' },
      rate: { type: 'string', default: '6' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      'Usage: npm run sim -- [--port 4010] [--host 127.0.0.1] [--seed 1] [--order newest-first|oldest-first] [--rate 6]\n',
    );
    return;
  }
  const port = Number(values.port);
  const seed = Number(values.seed);
  const rate = Number(values.rate);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    fail(`--port must be 0..65535, got ${values.port}`);
  if (!Number.isInteger(seed)) fail(`--seed must be an integer, got ${values.seed}`);
  if (!(rate >= 0)) fail(`--rate must be a number of actions per minute, got ${values.rate}`);
  if (values.order !== 'newest-first' && values.order !== 'oldest-first') {
    fail(`--order must be newest-first or oldest-first, got ${values.order}`);
  }
  const listOrder: ListOrder = values.order;

  const sim = await startSimulator({ host: values.host, port, seed, listOrder });
  const live =
    rate > 0
      ? startLiveCampaign(sim, demoLinkCaption, { ratePerMinute: rate, random: seededRandom(seed + 7) })
      : null;
  const fullKey = sim.issueProjectKey(demoLinkCaption);
  const someKey = sim.issueProjectKey(demoLinkCaption, {
    scopes: ['project:read', 'fundings:read', 'wall:read'],
  });
  const userKey = sim.issueUserKey(demoTeam.ownerId, { scopes: ['project:read'] });

  process.stdout.write(
    [
      `fundbot platform simulator listening on ${sim.url}`,
      `project: ${demoLinkCaption}  (live: ${rate} actions/min, seed ${seed}, lists ${listOrder})`,
      '',
      `Project key, all scopes:                        ${fullKey}`,
      `Project key, project/fundings/wall read only:   ${someKey}`,
      `User key of the owner (user ${demoTeam.ownerId}, project:read): ${userKey}`,
      '',
      `curl -s -H 'Authorization: Bearer ${fullKey}' '${sim.url}/project/${demoLinkCaption}/fundings?limit=5'`,
      '',
      'Ctrl+C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping simulator\n`);
    await live?.stop();
    await sim.close();
    process.exitCode = 0;
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `simulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
