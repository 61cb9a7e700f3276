import { type WaitOptions, waitUntil } from './wait-until.js';

/** One answer of a running bot's `/healthz`. */
export interface HealthzAnswer {
  readonly status: number;
  readonly body: string;
  /** How long after the wait began it came. */
  readonly ms: number;
}

/**
 * Asks `${opsUrl}/healthz` every 100 ms (unless `everyMs` says otherwise) until it answers `status`; resolves
 * with that answer. A timeout names the last answer.
 */
export async function healthzAnswers(
  opsUrl: string,
  status: number,
  options: WaitOptions = {},
): Promise<HealthzAnswer> {
  const started = Date.now();
  let last = 'nothing';
  try {
    return await waitUntil(
      `/healthz to answer ${status}`,
      async () => {
        const response = await fetch(`${opsUrl}/healthz`);
        const body = await response.text();
        last = `${response.status}: ${body}`;
        return response.status === status ? { status, body, ms: Date.now() - started } : undefined;
      },
      { everyMs: 100, ...options },
    );
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; its last answer was ${last}`);
  }
}
