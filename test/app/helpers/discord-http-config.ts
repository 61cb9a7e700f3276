import { demoLinkCaption } from '../../../src/simulator/index.js';
import type { FakeDiscord } from '../../fakes/discord/fake-discord.js';
import type { SignedInteractions } from '../../fakes/discord/signed-interactions.js';
import { demoProjectConfig } from '../../support/demo-project-config.js';

/**
 * fundbot on Discord HTTP interactions (on `port`) watching the demo project, as the tests of the whole bot
 * configure it: the config file's JSON (no digest, no health server) and the environment with the fake Discord's
 * token, API and signing key. `sections` adds to or replaces the config's sections, `env` the environment's
 * variables; replicas that share one key pass it as `key` (default: a new key for the demo project).
 */
export function discordHttpConfig(
  sim: { readonly url: string; issueProjectKey(linkCaption: string): string },
  fake: Pick<FakeDiscord, 'applicationId' | 'token' | 'apiUrl'>,
  signed: Pick<SignedInteractions, 'publicKeyHex'>,
  port: number,
  more: {
    readonly sections?: Readonly<Record<string, unknown>>;
    readonly env?: Readonly<Record<string, string>>;
    readonly key?: string;
  } = {},
): { readonly json: Record<string, unknown>; readonly env: Record<string, string> } {
  return {
    json: demoProjectConfig(sim, {
      discord: { enabled: true, mode: 'http', applicationId: fake.applicationId, port },
      digest: { enabled: false },
      http: { enabled: false },
      ...more.sections,
    }),
    env: {
      SOLAR_KIOSK_API_KEY: more.key ?? sim.issueProjectKey(demoLinkCaption),
      DISCORD_TOKEN: fake.token,
      DISCORD_PUBLIC_KEY: signed.publicKeyHex,
      DISCORD_API_URL: fake.apiUrl,
      ...more.env,
    },
  };
}
