/**
 * The key seam (src/app/replaceable-keys.ts) against the simulator: a project's handle keeps its requests on
 * the key in use, and a key the ring swapped takes effect at the handle's next request, also after the handle
 * has already served requests with the old one (it keeps the handle of the key in use between requests).
 */
import { describe, expect, it } from 'vitest';
import { createApiClient, parseProjectKey } from '../../src/api/index.js';
import { KeyRing, withReplaceableKeys } from '../../src/app/replaceable-keys.js';
import { demoLinkCaption, startSimulator } from '../../src/simulator/index.js';
import { closeAfterTest } from '../support/close-after-test.js';

describe('withReplaceableKeys', () => {
  it('sends each request with the key in use: the replaced key from the next request on', async () => {
    const sim = closeAfterTest(await startSimulator());
    const api = createApiClient({ baseUrl: sim.url, maxRetries: 0 });
    closeAfterTest({ close: () => api.close() });
    const ring = new KeyRing();
    const oldSecret = sim.issueProjectKey(demoLinkCaption);
    const oldKey = parseProjectKey(oldSecret);
    const newKey = parseProjectKey(sim.issueProjectKey(demoLinkCaption));
    const project = withReplaceableKeys(api, ring).project(demoLinkCaption, oldKey);

    await expect(project.fundingsPage({ limit: 1 })).resolves.toBeDefined();
    await expect(project.wallPage({ limit: 1 })).resolves.toBeDefined();
    sim.revokeKey(oldSecret);
    await expect(project.fundingsPage({ limit: 1 })).rejects.toThrow();

    ring.replace(oldKey, newKey);
    await expect(project.fundingsPage({ limit: 1 })).resolves.toBeDefined();
    await expect(project.get()).resolves.toMatchObject({ link_caption: demoLinkCaption });
    expect(project.linkCaption).toBe(demoLinkCaption);
  });
});
