import { type Env, formatConfigProblems, type ReadTextFile, resolveStartMode } from '../config/index.js';

/** Hosts that mean "every interface": the probe reaches them on the loopback address. */
const ANY_HOST = new Set(['0.0.0.0', '::', '[::]']);

export interface HealthcheckOutcome {
  /** The process exit code Docker reads: 0 healthy, 1 unhealthy. */
  readonly code: 0 | 1;
  /** One line for `docker inspect` (the healthcheck's output). */
  readonly line: string;
}

/**
 * What Docker's HEALTHCHECK runs (`node dist/src/healthcheck.js`): the configuration is read
 * exactly as the bot reads it (FUNDBOT_CONFIG, the file, PORT and FUNDBOT_HEALTH_HOST), and
 * `/healthz` is asked on the port the bot listens on, whatever `http.port` says. A fixed port
 * in the Dockerfile called a bot on any other port "unhealthy" while its /healthz answered 200.
 */
export async function runHealthcheck(options: {
  readonly env: Env;
  readonly readFile: ReadTextFile;
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
}): Promise<HealthcheckOutcome> {
  const start = resolveStartMode({ env: options.env, readFile: options.readFile });
  if (start.mode === 'invalid') {
    return { code: 1, line: formatConfigProblems(start.problems, start.source) };
  }
  if (start.mode === 'demo') return { code: 1, line: `no bot to check: ${start.reason}` };
  const { http } = start.config;
  if (!http.enabled) {
    // Nothing to ask: the container is as healthy as its process, which Docker already watches.
    return {
      code: 0,
      line: 'http.enabled is false: no /healthz to probe (enable it for a real healthcheck)',
    };
  }
  const host = ANY_HOST.has(http.host) ? '127.0.0.1' : http.host.includes(':') ? `[${http.host}]` : http.host;
  const url = `http://${host}:${http.port}/healthz`;
  try {
    const response = await (options.fetch ?? fetch)(url, {
      signal: AbortSignal.timeout(options.timeoutMs ?? 4_000),
    });
    const body = (await response.text()).slice(0, 500);
    return response.ok
      ? { code: 0, line: `${url}: ${response.status}` }
      : { code: 1, line: `${url}: ${response.status} ${body}` };
  } catch (error) {
    return {
      code: 1,
      line: `${url}: no answer (${error instanceof Error ? error.message : String(error)}): is fundbot running?`,
    };
  }
}
