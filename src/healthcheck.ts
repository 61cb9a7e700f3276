/**
 * Docker's HEALTHCHECK: `node dist/src/healthcheck.js`. Asks the running bot's `/healthz` on
 * the port its configuration names (see runHealthcheck); exits 0 when healthy, 1 otherwise,
 * with one line saying why.
 */
import { runHealthcheck } from './app/run-healthcheck.js';
import { readTextFileSync } from './config/index.js';

const outcome = await runHealthcheck({ env: process.env, readFile: readTextFileSync });
(outcome.code === 0 ? process.stdout : process.stderr).write(`${outcome.line}\n`);
process.exitCode = outcome.code;
