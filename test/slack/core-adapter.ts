/**
 * The HTTP-mode adapter with the REAL command core against a fake Slack whose workspace has a plain member
 * (U0PLAIN) and an admin (U0ADMIN): how the tests of commands through the real core run it, one per test.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import type { SlackAdapter } from '../../src/adapters/slack/index.js';
import type { CommandCore } from '../../src/core/command-core.js';
import type { Logger } from '../../src/domain/logger.js';
import { type FakeSlack, type RecordedResponse, startFakeSlack } from '../fakes/slack/fake-slack.js';
import { ManualClock } from '../support/manual-clock.js';
import { postSignedCommand, slashCommand } from './helpers.js';
import { httpModeAdapter } from './http-mode-adapter.js';

export interface CoreAdapter {
  readonly fake: FakeSlack;
  readonly adapter: SlackAdapter;
  /** Sends one signed command (acked with 200) and waits for `count` respond() calls to its response_url. */
  runAll(command: string, text: string, userId: string, count: number): Promise<readonly RecordedResponse[]>;
}

export interface CoreAdapterOptions {
  readonly botToken: string;
  readonly signingSecret: string;
  /** The adapter's logger for each test (default: a recording logger no test reads). */
  readonly logger?: () => Logger;
  /** The core, built for each test on its clock; `adapter` is the test's adapter, once it is created. */
  core(deps: { readonly clock: ManualClock; readonly adapter: () => SlackAdapter }): CommandCore;
}

export function coreAdapterPerTest(options: CoreAdapterOptions): CoreAdapter {
  const { botToken, signingSecret } = options;
  const running = {} as { fake: FakeSlack; adapter: SlackAdapter; url: string };
  beforeEach(async () => {
    running.fake = await startFakeSlack({
      botToken,
      users: [
        { id: 'U0PLAIN', team_id: 'T0FAKE', name: 'plain' },
        { id: 'U0ADMIN', team_id: 'T0FAKE', name: 'admin', is_admin: true },
      ],
    });
    const clock = new ManualClock();
    const core = options.core({ clock, adapter: () => running.adapter });
    running.adapter = httpModeAdapter({
      botToken,
      signingSecret,
      core,
      apiUrl: running.fake.apiUrl,
      clock,
      ...(options.logger ? { logger: options.logger() } : {}),
    });
    await running.adapter.start();
    running.url = running.adapter.url ?? '';
  });
  afterEach(async () => {
    await running.adapter.stop();
    await running.fake.close();
  });
  return {
    get fake() {
      return running.fake;
    },
    get adapter() {
      return running.adapter;
    },
    async runAll(command, text, userId, count) {
      const { fake } = running;
      const responseUrl = fake.responseUrl();
      const res = await postSignedCommand(
        running.url,
        signingSecret,
        slashCommand({ response_url: responseUrl, command, text, user_id: userId }),
      );
      expect(res.status).toBe(200);
      const mine = () => fake.responses.filter((r) => responseUrl.endsWith(r.id));
      return fake.waitFor(() => mine().length >= count && mine(), `${count} answers to ${command} ${text}`);
    },
  };
}
