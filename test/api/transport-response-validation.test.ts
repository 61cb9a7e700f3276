import { afterEach, describe, expect, it } from 'vitest';
import { ApiNetworkError, MalformedResponseError, ResponseValidationError } from '../../src/api/index.js';
import { aList, aProjectResponse, aWallPost } from './helpers/builders.js';
import { rejection } from './helpers/sim.js';
import { json } from './helpers/tiny-server.js';
import { client, closeAll, key, server } from './helpers/transport-setup.js';

afterEach(closeAll);

describe('validation of responses', () => {
  it('unknown fields are accepted and the deprecated top-level project status is not relied on', async () => {
    const body = aProjectResponse({ brand_new_field: { nested: true } });
    body.status = 'legacy-anything';
    body.another_top_level = [1, 2];
    const s = await server((_req, res) => json(res, 200, body));
    const project = await client(s.url).project('solar-kiosk', key).get();
    expect(project.title).toBe('Solar Kiosk');
  });

  it('a response failing validation is a ResponseValidationError naming the field paths and the endpoint', async () => {
    const broken = aWallPost(2, {
      user: { id: 'not-a-number', first_name: 'A', last_name: 'B', display_name: 'AB' },
    });
    const s = await server((_req, res) => json(res, 200, aList([aWallPost(1), broken, { id: 3 }])));
    const error = await rejection(client(s.url).project('solar-kiosk', key).wallPage());
    expect(error).toBeInstanceOf(ResponseValidationError);
    const validation = error as ResponseValidationError;
    expect(validation.endpoint).toBe('wall');
    expect(validation.path).toBe('/project/solar-kiosk/wall');
    expect(validation.issues.map((i) => i.path)).toContain('data.1.user.id');
    expect(validation.issues.map((i) => i.path)).toContain('data.2.message');
    expect(validation.message).toContain('data.1.user.id');
    expect(validation.message).toContain('wall');
  });

  it('malformed JSON is a typed MalformedResponseError, not a crash', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data": [ {"id": 1,');
    });
    const error = await rejection(client(s.url).project('solar-kiosk', key).wallPage());
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as MalformedResponseError).endpoint).toBe('wall');
  });

  it('a body larger than maxResponseBytes is refused', async () => {
    const s = await server((_req, res) =>
      json(res, 200, aList([aWallPost(1, { message: 'x'.repeat(5000) })])),
    );
    const error = await rejection(
      client(s.url, { maxResponseBytes: 1000, maxRetries: 0 }).project('p', key).wallPage(),
    );
    expect(error).toBeInstanceOf(ApiNetworkError);
  });
});
