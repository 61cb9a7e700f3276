/**
 * An admin's `/fundbot` commands to a running bot in Slack HTTP mode, signed as Slack signs them, in order; resolves
 * once the bot has answered each through its response_url (the fake Slack records the answers).
 */
import type { FakeSlack } from '../test/fakes/slack/fake-slack.js';
import { postSignedCommand, slashCommand } from '../test/slack/helpers.js';
import { waitUntil } from './wait-until.js';

export interface SlackAdminCommands {
  readonly slack: FakeSlack;
  /** The bot's Slack HTTP port (`slack.port` of its config). */
  readonly port: number;
  readonly signingSecret: string;
  readonly channel: string;
  /** The admin: a user the fake lists with `is_admin`. */
  readonly userId: string;
  /** Command texts after `/fundbot`, e.g. `subscribe launch supporters`. */
  readonly texts: readonly string[];
  readonly log: (message: string) => void;
}

export async function runSlackAdminCommands(options: SlackAdminCommands): Promise<void> {
  const { slack } = options;
  const answeredBefore = slack.responses.length;
  for (const text of options.texts) {
    const response = await postSignedCommand(
      `http://127.0.0.1:${options.port}/slack/events`,
      options.signingSecret,
      slashCommand({
        response_url: slack.responseUrl(),
        text,
        user_id: options.userId,
        channel_id: options.channel,
        team_id: 'T0FAKE',
      }),
    );
    if (!response.ok) throw new Error(`Slack ${text}: HTTP ${response.status}`);
  }
  const answered = await waitUntil(
    'the answers to the Slack commands',
    () => slack.responses.length >= answeredBefore + options.texts.length,
    { timeoutMs: 20_000, log: options.log },
  );
  if (!answered) throw new Error(`Slack did not answer ${options.texts.join(', ')} within 20 s`);
}
