import type { SlackAdapterOptions } from '../../src/adapters/slack/create-slack-adapter.js';
import { createSlackAdapter, type SlackAdapter } from '../../src/adapters/slack/index.js';
import { recordingLogger } from '../support/recording-logger.js';

/**
 * The Slack adapter in HTTP mode (the real Bolt HTTPReceiver) as the adapter tests run it: on a free port of
 * 127.0.0.1, no Web API retries, a recording logger; `options` names the rest (the fake's `apiUrl`, the tokens,
 * the core) and may replace any of these.
 */
export function httpModeAdapter(
  options: Omit<SlackAdapterOptions, 'mode'> & { readonly apiUrl: string; readonly signingSecret: string },
): SlackAdapter {
  return createSlackAdapter({
    mode: 'http',
    port: 0,
    host: '127.0.0.1',
    retryPolicy: { retries: 0 },
    logger: recordingLogger(),
    ...options,
  });
}
