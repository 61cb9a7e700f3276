import { randomBytes } from 'node:crypto';
import type { Installation } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createEncryptedInstallationStore,
  createTokenCipher,
  encryptionKeyFromBase64,
} from '../../src/adapters/slack/oauth/index.js';
import { memoryStore } from '../../src/lib/store.js';

const installation: Installation<'v2', false> = {
  team: { id: 'T0ONE', name: 'Team One' },
  enterprise: undefined,
  user: { token: undefined, scopes: undefined, id: 'U0INSTALL' },
  bot: { token: 'xoxb-secret-token', scopes: ['commands'], id: 'B0BOT', userId: 'U0BOT' },
  isEnterpriseInstall: false,
  authVersion: 'v2',
};

describe('installation encryption (AES-256-GCM)', () => {
  it('round-trips, with a fresh nonce every time', () => {
    const cipher = createTokenCipher(randomBytes(32));
    const a = cipher.seal('xoxb-1', 'ctx');
    const b = cipher.seal('xoxb-1', 'ctx');
    expect(a.iv).not.toBe(b.iv);
    expect(cipher.open(a, 'ctx')).toBe('xoxb-1');
  });

  it('does not open with another key, another context or a changed byte', () => {
    const cipher = createTokenCipher(randomBytes(32));
    const sealed = cipher.seal('xoxb-1', 'slack/installations/team/T1');
    expect(() => createTokenCipher(randomBytes(32)).open(sealed, 'slack/installations/team/T1')).toThrow();
    expect(() => cipher.open(sealed, 'slack/installations/team/T2')).toThrow();
    const data = Buffer.from(sealed.data, 'base64');
    data[0] = (data[0] ?? 0) ^ 1;
    expect(() =>
      cipher.open({ ...sealed, data: data.toString('base64') }, 'slack/installations/team/T1'),
    ).toThrow();
  });

  it('takes a key of exactly 32 bytes in base64 and says how to make one', () => {
    expect(encryptionKeyFromBase64(randomBytes(32).toString('base64'))).toHaveLength(32);
    expect(() => encryptionKeyFromBase64(randomBytes(16).toString('base64'))).toThrow(
      /openssl rand -base64 32/,
    );
    expect(() => encryptionKeyFromBase64('not base64!')).toThrow(/32 random bytes/);
  });

  it('stores no readable token, and a changed key fails loudly instead of looking uninstalled', async () => {
    const store = memoryStore();
    const key = randomBytes(32);
    const installations = createEncryptedInstallationStore(store, createTokenCipher(key));
    await installations.storeInstallation(installation);
    // 'xoxb-': every bot token in clear starts so, and base64 ciphertext cannot ('-' is not in its alphabet);
    // a bare 'xoxb' is four base64 letters a random ciphertext contains now and then (it did once in CI).
    expect(JSON.stringify(await store.get('slack/installations/team/T0ONE', z.unknown()))).not.toContain(
      'xoxb-',
    );
    expect(await installations.botToken('T0ONE')).toBe('xoxb-secret-token');
    expect(await installations.botToken('T0OTHER')).toBeUndefined();

    const rotated = createEncryptedInstallationStore(store, createTokenCipher(randomBytes(32)));
    await expect(rotated.botToken('T0ONE')).rejects.toThrow(/FUNDBOT_ENCRYPTION_KEY differs/);
  });
});
