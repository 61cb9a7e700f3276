/**
 * Test doubles and builders for the Slack adapter tests: a recording CommandCore
 * (the real core is another part), a recording logger, a slash command builder and
 * a Slack request signer.
 */
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import type { CommandCore, CommandInvocation, Locale } from '../../src/core/command-core.js';
import type { NeutralMessage } from '../../src/core/message.js';
import { waitUntil } from '../support/wait-until.js';

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export interface RecordingCore extends CommandCore {
  readonly invocations: CommandInvocation[];
}

/** A CommandCore that records invocations and answers with `reply` (default: a small public message). */
export function recordingCore(
  reply: (invocation: CommandInvocation) => NeutralMessage | Promise<NeutralMessage> = (invocation) => ({
    title: `Funding of ${String(invocation.options.project ?? 'default')}`,
    text: 'All good',
  }),
  locale: Locale = 'en',
): RecordingCore {
  const invocations: CommandInvocation[] = [];
  return {
    invocations,
    async execute(invocation) {
      invocations.push(invocation);
      return reply(invocation);
    },
    async autocomplete() {
      return [];
    },
    renderNotice() {
      return { text: 'notice' };
    },
    async localeFor() {
      return locale;
    },
    async timeZoneFor() {
      return 'UTC';
    },
  };
}

export { type RecordedLog, recordingLogger } from '../support/recording-logger.js';

/** The form fields Slack sends for a slash command. */
export function slashCommand(
  overrides: Partial<Record<string, string>> & { response_url: string },
): Record<string, string> {
  const fields: Record<string, string> = {
    token: 'legacy-verification-token',
    team_id: 'T0FAKE',
    team_domain: 'fake',
    channel_id: 'C0CHAN',
    channel_name: 'campaign',
    user_id: 'U0PLAIN',
    user_name: 'plain.user',
    command: '/fundbot',
    text: 'funding',
    api_app_id: 'A0FAKE',
    trigger_id: '1.2.3',
  };
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) fields[key] = value;
  return fields;
}

/**
 * POSTs a slash command the way Slack does: form-encoded with the exact content type
 * `application/x-www-form-urlencoded` (Bolt rejects a charset suffix) and signed with
 * HMAC-SHA256 over `v0:<timestamp>:<body>`.
 */
export function postSignedCommand(
  url: string,
  signingSecret: string,
  fields: Record<string, string>,
  options: SigningOptions = {},
): Promise<Response> {
  return postSigned(
    url,
    signingSecret,
    new URLSearchParams(fields).toString(),
    'application/x-www-form-urlencoded',
    options,
  );
}

/** A JSON body (a whole Events API callback as given), signed as Slack signs it. */
export function postSignedJson(url: string, signingSecret: string, body: object): Promise<Response> {
  return postSigned(url, signingSecret, JSON.stringify(body), 'application/json');
}

export interface SigningOptions {
  /** The request's time (default now); Slack's requests older than 5 minutes are refused. */
  readonly timestampSeconds?: number;
  /** A signature to send instead of the right one. */
  readonly signature?: string;
}

/** POSTs `body` signed with `signingSecret` as Slack signs its requests (`v0=` HMAC of `v0:timestamp:body`). */
export function postSigned(
  url: string,
  signingSecret: string,
  body: string,
  contentType: string,
  options: SigningOptions = {},
): Promise<Response> {
  const timestamp = String(options.timestampSeconds ?? Math.floor(Date.now() / 1000));
  const signature =
    options.signature ??
    `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signature,
    },
    body,
  });
}

/** An Events API callback (app_home_opened, app_uninstalled, …) of `teamId`, signed, to `url`. */
export function postSignedEvent(
  url: string,
  signingSecret: string,
  teamId: string,
  event: Record<string, unknown>,
  eventId = `Ev${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
): Promise<Response> {
  const body = JSON.stringify({
    token: 'legacy',
    team_id: teamId,
    api_app_id: 'A0FUNDBOT',
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    event,
  });
  return postSigned(url, signingSecret, body, 'application/json');
}

/**
 * fundbot's connect form submitted, as Slack posts a view_submission (the form fields of the request: its
 * `payload`); send it with {@link postSignedCommand}. `channel` is where `/fundbot connect` was typed.
 */
export function connectFormSubmission(input: {
  readonly teamId: string;
  readonly userId: string;
  readonly project: string;
  readonly key: string;
  readonly channel: string;
  readonly callbackId?: string;
  readonly privateMetadata?: string;
}): Record<string, string> {
  const payload = {
    type: 'view_submission',
    team: { id: input.teamId, domain: input.teamId.toLowerCase() },
    user: { id: input.userId, team_id: input.teamId, name: input.userId.toLowerCase() },
    api_app_id: 'A0FUNDBOT',
    token: 'legacy',
    trigger_id: 'trigger-submit',
    view: {
      id: 'V0FORM',
      team_id: input.teamId,
      type: 'modal',
      callback_id: input.callbackId ?? 'fundbot_connect',
      private_metadata: input.privateMetadata ?? JSON.stringify({ channel: input.channel, locale: 'en' }),
      state: {
        values: {
          project: { project: { type: 'plain_text_input', value: input.project } },
          key: { key: { type: 'plain_text_input', value: input.key } },
        },
      },
      hash: 'h',
      app_id: 'A0FUNDBOT',
      bot_id: 'B0BOT',
    },
  };
  return { payload: JSON.stringify(payload) };
}

/**
 * A slash command (`fields` over {@link slashCommand}'s, with a new response_url of `fake`) signed and sent to
 * `eventsUrl` as Slack sends it: acknowledged with 200, and answered through its response_url, which this
 * resolves with (rejects after `timeoutMs`).
 */
export async function answerToSignedCommand(
  fake: {
    responseUrl(): string;
    readonly responses: readonly { readonly id: string; readonly body: Record<string, unknown> }[];
  },
  eventsUrl: string,
  signingSecret: string,
  fields: Partial<Record<string, string>>,
  timeoutMs = 10_000,
) {
  const responseUrl = fake.responseUrl();
  const sent = await postSignedCommand(
    eventsUrl,
    signingSecret,
    slashCommand({ ...fields, response_url: responseUrl }),
  );
  expect(sent.status).toBe(200);
  return waitUntil(
    `the answer to ${fields['command'] ?? '/fundbot'} ${fields['text'] ?? ''}`,
    () => fake.responses.find((r) => responseUrl.endsWith(r.id)),
    { timeoutMs },
  );
}
