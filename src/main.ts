/**
 * fundbot's entry point: `npm start`.
 *
 * - No config file and no chat token: the demo (simulator + terminal).
 * - A config file: the bot, or a list of every configuration problem with what to do.
 */
import { startFleetJoinEarly } from './app/early-fleet-join.js';
import { registerConfiguredSecrets } from './app/register-configured-secrets.js';
import { readVersion } from './app/version.js';
import { formatConfigProblems, readTextFileSync, resolveStartMode } from './config/index.js';
import { limitHeapGrowth } from './ops/heap-growth.js';
import { createLogger, installGracefulShutdown, type ShutdownStep, silentLogger } from './ops/index.js';

async function main(): Promise<void> {
  limitHeapGrowth();
  const version = readVersion();
  const start = resolveStartMode({ env: process.env, readFile: readTextFileSync });

  if (start.mode === 'invalid') {
    process.stderr.write(`${formatConfigProblems(start.problems, start.source)}\n`);
    process.exitCode = 1;
    return;
  }

  if (start.mode === 'demo') {
    const rate = Number(process.env.FUNDBOT_DEMO_RATE ?? '');
    const { startDemo } = await import('./app/start-demo.js');
    const demo = await startDemo({
      input: process.stdin,
      output: process.stdout,
      version,
      ...(Number.isFinite(rate) && rate > 0 ? { actionsPerMinute: rate } : {}),
    });
    installGracefulShutdown({
      signals: process,
      steps: [{ name: 'stop the demo', stop: () => demo.stop() }],
      totalTimeoutMs: 5_000,
      logger: silentLogger,
      exit: (code) => process.exit(code),
    });
    await demo.finished;
    return;
  }

  const config = start.config;
  // Every chat secret by value with the one redactor, before the first log line: a signing secret has no
  // recognisable shape. The API keys are registered by the API client as it uses them.
  const knownSecrets = registerConfiguredSecrets(config);
  const logger = createLogger({
    level: config.logLevel,
    format: config.logFormat,
    base: { service: 'fundbot', version },
    knownSecrets,
  });
  for (const warning of start.warnings)
    logger.warn({ path: warning.path, fix: warning.fix }, warning.message);
  // Installed before anything starts, so a SIGTERM during start-up is a clean stop too.
  let steps: readonly ShutdownStep[] = [];
  installGracefulShutdown({
    signals: process,
    steps: () => steps,
    // Docker sends SIGKILL 10 s after SIGTERM: everything must be done (or given up on) within 8 s.
    totalTimeoutMs: 8_000,
    logger,
    exit: (code) => process.exit(code),
  });
  // On Redis the fleet join starts now: its wait for the fleet to stand still passes while the bot loads.
  const earlyJoin = startFleetJoinEarly(config, logger);
  try {
    const { startBot } = await import('./app/start-bot.js');
    const bot = await startBot(config, logger, version, {}, earlyJoin);
    steps = bot.shutdownSteps;
  } catch (error) {
    logger.error({ err: error }, 'fundbot could not start');
    process.exitCode = 1;
    // Open sockets would keep a failed start alive; leave after the log line is written.
    setTimeout(() => process.exit(1), 100).unref();
  }
}

await main();
