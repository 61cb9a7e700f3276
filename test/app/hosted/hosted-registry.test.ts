/**
 * Issue 24: connected projects in the shared store. Connects on several replicas at once all land in the index
 * (its changes are serialized by a set-if-absent lock in Redis), and the key is sealed: never in clear in Redis.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hostedRegistry } from '../../../src/app/hosted/hosted-registry.js';
import { connectRedis } from '../../../src/lib/coordination/redis-client.js';
import { openStore } from '../../../src/lib/store.js';
import { createTokenCipher } from '../../../src/lib/token-cipher.js';
import { skipRedisTests } from '../../support/redis-server.js';
import { sharedRedis } from '../../support/shared-redis.js';

describe.skipIf(skipRedisTests())('the hosted project registry on a real redis-server', () => {
  const redis = sharedRedis();

  it('keeps every one of 30 concurrent connects from 3 replicas, with the keys sealed', async () => {
    const cipher = createTokenCipher(randomBytes(32));
    const stores = await Promise.all([1, 2, 3].map(() => openStore(redis.server.url)));
    try {
      const registries = stores.map((s) => hostedRegistry(s, cipher));
      const keys = Array.from({ length: 30 }, (_, i) => `svc_proj_${randomBytes(16).toString('hex')}${i}`);
      await Promise.all(
        keys.map((apiKey, i) =>
          registries[i % 3]!.write(`project-${i}`, {
            workspace: { platform: 'slack', workspaceId: `T${i % 5}` },
            apiKey,
            by: 'admin',
            at: i,
            featuresOff: [],
          }),
        ),
      );
      const index = await registries[0]!.index();
      expect(index.map((e) => e.linkCaption).sort()).toEqual(keys.map((_, i) => `project-${i}`).sort());
      expect(await registries[1]!.ownedBy({ platform: 'slack', workspaceId: 'T0' })).toHaveLength(6);
      const record = await registries[2]!.read('project-7');
      expect(record && registries[2]!.openKey('project-7', record)).toBe(keys[7]);

      const raw = await connectRedis(redis.server.url, () => {});
      try {
        const dump = (await Promise.all((await raw.keys('*')).map((k) => raw.get(k)))).join('\n');
        for (const key of keys) expect(dump).not.toContain(key.slice(9));
      } finally {
        raw.destroy();
      }

      // The limit holds against connects racing on three replicas: of 6 new projects of one workspace with
      // room for 2, exactly 2 are stored; a project owned by another workspace is not taken over.
      const racing = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          registries[i % 3]!.write(
            `racing-${i}`,
            {
              workspace: { platform: 'discord', workspaceId: 'G1' },
              apiKey: keys[0]!,
              by: 'a',
              at: i,
              featuresOff: [],
            },
            2,
          ),
        ),
      );
      expect(racing.filter((r) => r === 'ok')).toHaveLength(2);
      expect(racing.filter((r) => r === 'limit')).toHaveLength(4);
      expect(
        await registries[0]!.write(
          'project-3',
          {
            workspace: { platform: 'discord', workspaceId: 'G9' },
            apiKey: keys[1]!,
            by: 'b',
            at: 99,
            featuresOff: [],
          },
          5,
        ),
      ).toBe('other-workspace');
      expect((await registries[0]!.read('project-3'))?.workspace.workspaceId).toBe('T3');

      await Promise.all([registries[0]!.remove('project-1'), registries[1]!.remove('project-2')]);
      expect((await registries[2]!.index()).map((e) => e.linkCaption)).not.toContain('project-1');
      expect(await registries[2]!.read('project-2')).toBeUndefined();
    } finally {
      for (const s of stores) await s.close();
    }
  });
});
