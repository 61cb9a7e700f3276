import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { KeyValueStore } from '../../../lib/store.js';
import { sealedValueSchema, type TokenCipher } from './token-cipher.js';

/** Where one installation lives: per workspace, or per org for an org-wide (Enterprise Grid) install. */
export function installationKey(query: {
  readonly teamId?: string | undefined;
  readonly enterpriseId?: string | undefined;
  readonly isEnterpriseInstall?: boolean | undefined;
}): string {
  if (query.isEnterpriseInstall) {
    if (!query.enterpriseId) throw new Error('an org-wide Slack installation without an enterprise id');
    return `slack/installations/enterprise/${encodeURIComponent(query.enterpriseId)}`;
  }
  if (!query.teamId) throw new Error('a Slack installation without a team id');
  return `slack/installations/team/${encodeURIComponent(query.teamId)}`;
}

/** Bolt's InstallationStore, plus what fundbot's poster and uninstall handling need. */
export interface EncryptedInstallationStore extends InstallationStore {
  deleteInstallation(query: InstallationQuery<boolean>): Promise<void>;
  /** The bot token of a workspace's installation, or undefined when it is not installed there. */
  botToken(teamId: string): Promise<string | undefined>;
}

/**
 * Slack installations (bot token, scopes, ids) in fundbot's key-value store,
 * encrypted with AES-256-GCM bound to their key. Nothing readable of a token ever
 * reaches the store: a copied database or a Redis dump without the key shows the
 * team ids only. Store cost: one key per workspace, under 1 KB (474 bytes measured for a bot-only install).
 *
 * A value that does not decrypt (the key was changed) fails loudly with what to
 * do; it is never treated as "not installed", which would silently drop a workspace.
 */
export function createEncryptedInstallationStore(
  store: KeyValueStore,
  cipher: TokenCipher,
): EncryptedInstallationStore {
  async function read(key: string): Promise<Installation | undefined> {
    const sealed = await store.get(key, sealedValueSchema);
    if (!sealed) return undefined;
    let plaintext: string;
    try {
      plaintext = cipher.open(sealed, key);
    } catch (error) {
      throw new Error(
        `the Slack installation under "${key}" does not decrypt: FUNDBOT_ENCRYPTION_KEY differs from the key it was stored with; restore that key, or delete the entry and reinstall the app in that workspace`,
        { cause: error },
      );
    }
    return JSON.parse(plaintext) as Installation;
  }

  return {
    async storeInstallation(installation) {
      const key = installationKey({
        teamId: installation.team?.id,
        enterpriseId: installation.enterprise?.id,
        isEnterpriseInstall: installation.isEnterpriseInstall,
      });
      await store.set(key, cipher.seal(JSON.stringify(installation), key));
    },
    async fetchInstallation(query) {
      const key = installationKey(query);
      const installation = await read(key);
      if (!installation) throw new Error(`no Slack installation for ${key.split('/').slice(-2).join(' ')}`);
      return installation;
    },
    async deleteInstallation(query) {
      await store.delete(installationKey(query));
    },
    async botToken(teamId) {
      return (await read(installationKey({ teamId })))?.bot?.token;
    },
  };
}
