import { demoLinkCaption } from '../../src/simulator/index.js';

/**
 * A fundbot.config.json for the simulator's demo project as the tests of the whole bot write it: the simulator's
 * API, a memory store, the project's key from SOLAR_KIOSK_API_KEY; `sections` adds the rest (a chat platform,
 * the digest, the health server) and may replace any of these.
 */
export function demoProjectConfig(
  sim: { readonly url: string },
  sections: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  return {
    api: { baseUrl: sim.url },
    store: { url: 'memory:' },
    projects: [{ linkCaption: demoLinkCaption, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }],
    ...sections,
  };
}
