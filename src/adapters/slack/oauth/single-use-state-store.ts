import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { InstallURLOptions, StateStore } from '@slack/bolt';
import { z } from 'zod';
import type { KeyValueStore } from '../../../lib/store.js';

/** How long an install may take from /slack/install to the redirect (Bolt's own default: 10 minutes). */
export const installStateTtlMs = 10 * 60_000;

const payloadSchema = z.object({
  at: z.number(),
  nonce: z.string().min(16),
  options: z.record(z.string(), z.unknown()),
});

/** The install's state was forged, too old, or used already. Bolt answers the redirect with its failure page. */
export class InstallStateError extends Error {
  override readonly name = 'InstallStateError';
  readonly code = 'slack_oauth_invalid_state';
}

/**
 * Bolt's `StateStore`, single-use: the state is signed with SLACK_STATE_SECRET (HMAC-SHA256) and carries a
 * random nonce; verifying it marks the nonce used with one atomic set-if-absent in the shared store, so a
 * state (and its cookie) replayed after a finished install, or raced on two replicas, installs nothing.
 * Bolt's default state store (a JWT) is valid for its whole 10 minutes, however often it is used.
 *
 * Cost: one store write (about 60 bytes, gone after 10 minutes) per finished install.
 */
export function singleUseStateStore(
  stateSecret: string,
  store: KeyValueStore,
  now: () => number = Date.now,
): StateStore {
  const sign = (body: string) => createHmac('sha256', stateSecret).update(body).digest('base64url');
  return {
    async generateStateParam(installOptions: InstallURLOptions) {
      const payload = { at: now(), nonce: randomBytes(16).toString('base64url'), options: installOptions };
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${body}.${sign(body)}`;
    },
    async verifyStateParam(_at: Date, state: string) {
      const [body = '', mac = ''] = state.split('.');
      const expected = Buffer.from(sign(body));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new InstallStateError(
          'the install state is not signed by this app: start again at /slack/install',
        );
      }
      const payload = payloadSchema.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
      const age = now() - payload.at;
      if (age < 0 || age > installStateTtlMs) {
        throw new InstallStateError('the install state expired (10 minutes): start again at /slack/install');
      }
      const mark = `slack/oauth-state/${createHash('sha256').update(payload.nonce).digest('hex').slice(0, 32)}`;
      if (!(await store.setIfAbsent(mark, { at: now() }, installStateTtlMs))) {
        throw new InstallStateError('the install state was used already: start again at /slack/install');
      }
      return payload.options as unknown as InstallURLOptions;
    },
  };
}
