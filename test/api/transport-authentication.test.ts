import { afterEach, describe, expect, it } from 'vitest';
import { ApiNetworkError, ApiTimeoutError, ForbiddenError } from '../../src/api/index.js';
import { aList, aProjectResponse, aWallPost } from './helpers/builders.js';
import { everythingOf } from './helpers/error-text.js';
import { rejection } from './helpers/sim.js';
import { json, startTinyServer } from './helpers/tiny-server.js';
import { client, closeAll, key, RAW_KEY, SECRET, server } from './helpers/transport-setup.js';

afterEach(closeAll);

describe('authentication on the wire', () => {
  it('the credential is sent only as Authorization: Bearer', async () => {
    const s = await server((_req, res) => json(res, 200, aList([aWallPost(1)])));
    await client(s.url).project('solar-kiosk', key).wallPage();
    const [request] = s.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${RAW_KEY}`);
    expect(request?.url).not.toContain(SECRET);
    const otherHeaders = Object.entries(request?.headers ?? {}).filter(([name]) => name !== 'authorization');
    expect(JSON.stringify(otherHeaders)).not.toContain(SECRET);
  });

  it('a request without a key carries no Authorization header (public project view)', async () => {
    const s = await server((_req, res) => json(res, 200, aProjectResponse()));
    const project = await client(s.url).project('solar-kiosk').get();
    expect(project.link_caption).toBe('solar-kiosk');
    expect(s.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('a key never appears in errors from failed requests, even when the server echoes it', async () => {
    const s = await server((req, res) =>
      json(res, 403, {
        error: `insufficient_scope ${req.headers.authorization}`,
        error_description: `you sent ${req.headers.authorization}`,
      }),
    );
    const error = await rejection(client(s.url).project('solar-kiosk', key).wallPage());
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(everythingOf(error)).not.toContain(SECRET);
    expect((error as ForbiddenError).description).toContain('[redacted]');
  });

  it('a key never appears in network and timeout errors or their causes', async () => {
    const dead = await startTinyServer(() => {});
    const deadUrl = dead.url;
    await dead.close();
    const network = await rejection(client(deadUrl, { maxRetries: 0 }).project('p', key).fundingsPage());
    expect(network).toBeInstanceOf(ApiNetworkError);
    expect(everythingOf(network)).not.toContain(SECRET);

    const silent = await server(() => {});
    const timeout = await rejection(
      client(silent.url, { maxRetries: 0, timeoutMs: 50 }).project('p', key).fundingsPage(),
    );
    expect(timeout).toBeInstanceOf(ApiTimeoutError);
    expect(everythingOf(timeout)).not.toContain(SECRET);
  });
});
