import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { defaultGuild, defaultMember, type FakeDiscord } from './fake-discord.js';
import { channelPayload, memberPayload, snowflake, userPayload } from './fake-discord-payloads.js';

/**
 * Discord's side of HTTP interactions: an application key pair, payloads as
 * Discord posts them to an Interactions Endpoint URL, signed with Ed25519 over
 * `timestamp + body`. The fake Discord (REST) receives the webhook calls that follow.
 */
export interface SignedInteractions {
  /** The public key in the Developer Portal's format: 64 hex characters. */
  readonly publicKeyHex: string;
  /** POSTs an interaction to `url`, signed (or not, or with another key). */
  post(url: string, payload: object, signing?: Signing): Promise<{ status: number; body: unknown }>;
  ping(): Record<string, unknown>;
  chatInput(interaction: InteractionInput): Record<string, unknown> & { token: string; id: string };
  autocomplete(interaction: InteractionInput & { focused: string }): Record<string, unknown>;
}

export interface InteractionInput {
  readonly command: string;
  readonly options?: readonly { readonly name: string; readonly value: string | number | boolean }[];
  readonly permissions?: bigint;
  readonly nick?: string | null;
  readonly locale?: string;
  /** null: a DM (no guild, no member). */
  readonly guildId?: string | null;
}

export type Signing =
  | { readonly kind: 'valid'; readonly timestampSeconds?: number }
  | { readonly kind: 'other-key' }
  | { readonly kind: 'tampered' }
  | { readonly kind: 'none' };

const optionTypeOf = (value: string | number | boolean): number =>
  typeof value === 'string' ? 3 : typeof value === 'boolean' ? 5 : Number.isInteger(value) ? 4 : 10;

export function signedInteractions(fake: Pick<FakeDiscord, 'applicationId'>): SignedInteractions {
  const keys = generateKeyPairSync('ed25519');
  const stranger = generateKeyPairSync('ed25519');
  // The raw key is the last 32 bytes of the SPKI DER encoding.
  const publicKeyHex = keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');

  const signWith = (key: KeyObject, timestamp: string, body: string) =>
    sign(null, Buffer.from(timestamp + body), key).toString('hex');

  function interaction(type: 2 | 4, input: InteractionInput, focused?: string) {
    const guildId = input.guildId === undefined ? defaultGuild.id : input.guildId;
    const channel = defaultGuild.channels[0] ?? { id: '200000000000000001', name: 'campaign' };
    const user = defaultMember.user;
    return {
      id: snowflake(),
      application_id: fake.applicationId,
      type,
      token: `fake-interaction-token-${randomBytes(12).toString('hex')}`,
      version: 1,
      locale: input.locale ?? 'en-US',
      entitlements: [],
      app_permissions: (2n ** 50n - 1n).toString(),
      data: {
        id: snowflake(),
        name: input.command,
        type: 1,
        options: (input.options ?? []).map((o) => ({
          name: o.name,
          type: optionTypeOf(o.value),
          value: o.value,
          ...(o.name === focused ? { focused: true } : {}),
        })),
      },
      ...(guildId
        ? {
            guild_id: guildId,
            channel_id: channel.id,
            channel: channelPayload(channel, guildId),
            member: memberPayload(user, input.permissions ?? 0n, input.nick ?? null),
          }
        : { channel_id: '500000000000000001', user: userPayload(user) }),
    };
  }

  return {
    publicKeyHex,
    async post(url, payload, signing = { kind: 'valid' }) {
      const body = JSON.stringify(payload);
      const timestamp = String(
        signing.kind === 'valid' && signing.timestampSeconds !== undefined
          ? signing.timestampSeconds
          : Math.floor(Date.now() / 1000),
      );
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (signing.kind !== 'none') {
        headers['x-signature-timestamp'] = timestamp;
        headers['x-signature-ed25519'] = signWith(
          signing.kind === 'other-key' ? stranger.privateKey : keys.privateKey,
          timestamp,
          body,
        );
      }
      // 'tampered': signed, then one byte of the body changes on the way.
      const sent = signing.kind === 'tampered' ? body.replace('"type":', '"type" :') : body;
      const response = await fetch(url, { method: 'POST', headers, body: sent });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    },
    ping: () => ({ id: snowflake(), application_id: fake.applicationId, type: 1, token: 'ping', version: 1 }),
    chatInput: (input) => interaction(2, input),
    autocomplete: (input) => interaction(4, input, input.focused),
  };
}

/** fundbot's connect modal submitted (interaction type 5) by a server admin, as Discord sends it. */
export function connectModalSubmission(
  signed: Pick<SignedInteractions, 'chatInput'>,
  project: string,
  key: string,
  input: Omit<InteractionInput, 'command'> = {},
): Record<string, unknown> & { token: string } {
  return {
    ...signed.chatInput({ command: 'connect', ...input }),
    type: 5,
    data: {
      custom_id: 'fundbot_connect',
      components: [
        { type: 1, components: [{ type: 4, custom_id: 'project', value: project }] },
        { type: 1, components: [{ type: 4, custom_id: 'key', value: key }] },
      ],
    },
  };
}
