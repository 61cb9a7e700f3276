import { afterEach, describe, expect, it } from 'vitest';
import { checkApiDrift, createApiClient, diffOpenApi, OPENAPI_STORE_KEY } from '../../src/api/index.js';
import { memoryStore } from '../../src/lib/store.js';
import { type OpenApiVariant, openApiVariants } from '../../src/simulator/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { startHarness } from './helpers/sim.js';
import { json, startTinyServer } from './helpers/tiny-server.js';

function doc(
  options: { extraPath?: boolean; extraParam?: boolean; dropField?: boolean; addField?: boolean } = {},
) {
  const wallItem: Record<string, unknown> = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      message: { type: 'string' },
      user: { $ref: '#/components/schemas/WallUser' },
      ...(options.addField ? { reactions: { type: 'integer' } } : {}),
    },
  };
  const wallUser = {
    type: 'object',
    properties: options.dropField
      ? { id: { type: 'integer' } }
      : { id: { type: 'integer' }, display_name: { type: 'string' } },
  };
  const paths: Record<string, unknown> = {
    '/project/{link_caption}/wall': {
      parameters: [{ name: 'link_caption', in: 'path', required: true }],
      get: {
        parameters: [
          { $ref: '#/components/parameters/limit' },
          { name: 'offset', in: 'query' },
          ...(options.extraParam ? [{ name: 'since', in: 'query' }] : []),
        ],
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    data: { type: 'array', items: wallItem },
                    meta: { $ref: '#/components/schemas/Meta' },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
  if (options.extraPath) paths['/project/{link_caption}/timeline'] = { get: { responses: { '200': {} } } };
  return {
    openapi: '3.0.3',
    paths,
    components: {
      parameters: { limit: { name: 'limit', in: 'query' } },
      schemas: {
        WallUser: wallUser,
        Meta: {
          type: 'object',
          properties: { total: { type: 'integer' }, self: { $ref: '#/components/schemas/Meta' } },
        },
      },
    },
  };
}

describe('API drift', () => {
  it('identical documents report no change', () => {
    const report = diffOpenApi(doc(), doc());
    expect(report.changed).toBe(false);
  });

  it('reports added and removed paths', () => {
    expect(diffOpenApi(doc(), doc({ extraPath: true })).addedPaths).toEqual([
      '/project/{link_caption}/timeline',
    ]);
    expect(diffOpenApi(doc({ extraPath: true }), doc()).removedPaths).toEqual([
      '/project/{link_caption}/timeline',
    ]);
  });

  it('reports added and removed parameters per path and method, following $ref', () => {
    const added = diffOpenApi(doc(), doc({ extraParam: true }));
    expect(added.addedParameters).toEqual([
      { method: 'GET', path: '/project/{link_caption}/wall', name: 'since', in: 'query' },
    ]);
    expect(diffOpenApi(doc({ extraParam: true }), doc()).removedParameters).toHaveLength(1);
  });

  it('reports added and removed response fields, through $ref, arrays and recursive schemas', () => {
    const report = diffOpenApi(doc(), doc({ addField: true, dropField: true }));
    expect(report.addedResponseFields).toEqual([
      { method: 'GET', path: '/project/{link_caption}/wall', field: 'data[].reactions' },
    ]);
    expect(report.removedResponseFields).toEqual([
      { method: 'GET', path: '/project/{link_caption}/wall', field: 'data[].user.display_name' },
    ]);
    expect(report.changed).toBe(true);
  });

  it('reports a changed parameter default (the spec warns defaults may change) and a changed field type', () => {
    const before = doc();
    const after = doc();
    (after.components.parameters.limit as Record<string, unknown>).schema = { type: 'integer', default: 10 };
    (
      (after.components.schemas.WallUser.properties as Record<string, unknown>).id as Record<string, unknown>
    ).type = 'string';
    const report = diffOpenApi(before, after);
    expect(report.changedParameters).toEqual([
      {
        method: 'GET',
        path: '/project/{link_caption}/wall',
        name: 'limit',
        in: 'query',
        changes: ['default: (none) → 10', 'type: (none) → "integer"'],
      },
    ]);
    expect(report.changedResponseFields).toEqual([
      {
        method: 'GET',
        path: '/project/{link_caption}/wall',
        field: 'data[].user.id',
        before: 'integer',
        after: 'string',
      },
    ]);
  });

  it('tolerates documents that are not OpenAPI at all', () => {
    expect(diffOpenApi(null, 'nonsense').changed).toBe(false);
    expect(diffOpenApi({}, doc()).addedPaths).toHaveLength(1);
  });
});

describe('checkApiDrift: clients fetch the OpenAPI description periodically and compare', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it('stores a baseline on the first run, then reports changes against the last stored copy', async () => {
    let current = doc();
    const server = await startTinyServer((req, res) => {
      expect(req.url).toBe('/openapi.json');
      expect(req.headers.authorization).toBeUndefined();
      json(res, 200, current);
    });
    const clock = new ManualClock();
    const api = createApiClient({ baseUrl: server.url, clock });
    const store = memoryStore();
    cleanups.push(
      () => server.close(),
      () => api.close(),
      () => store.close(),
    );

    const first = await checkApiDrift({ api, store, clock });
    expect(first.baseline).toBe(true);
    expect(first.report.changed).toBe(false);

    clock.advance(86_400_000);
    current = doc({ extraParam: true, extraPath: true });
    const second = await checkApiDrift({ api, store, clock });
    expect(second.baseline).toBe(false);
    expect(second.previousFetchedAt).toBe(first.checkedAt);
    expect(second.report.addedPaths).toEqual(['/project/{link_caption}/timeline']);
    expect(second.report.addedParameters).toHaveLength(1);

    const third = await checkApiDrift({ api, store, clock });
    expect(third.report.changed).toBe(false);
    expect(OPENAPI_STORE_KEY).toBe('api/openapi/last');
  });
});

describe("drift against the simulator's OpenAPI variants", () => {
  it('each changed variant of /openapi.json is detected, the baseline is not', async () => {
    const h = await startHarness();
    const store = memoryStore();
    try {
      const seen: Record<string, unknown> = {};
      for (const variant of openApiVariants) {
        await store.delete(OPENAPI_STORE_KEY);
        h.sim.setOpenApiVariant('baseline');
        await checkApiDrift({ api: h.api, store, clock: h.clock });
        h.sim.setOpenApiVariant(variant as OpenApiVariant);
        const { report } = await checkApiDrift({ api: h.api, store, clock: h.clock });
        seen[variant] = report.changed;
        if (variant === 'field-added') {
          expect(report.addedResponseFields.map((f) => f.field)).toContain('project.backer_goal');
        }
        if (variant === 'endpoint-removed')
          expect(report.removedPaths).toEqual(['/project/{link_caption}/subscribers']);
        if (variant === 'parameter-added') {
          expect(report.addedParameters).toEqual([
            { method: 'GET', path: '/project/{link_caption}/wall', name: 'since', in: 'query' },
          ]);
        }
        if (variant === 'default-changed') {
          expect(report.changedParameters.map((p) => [p.path, p.name, p.changes])).toEqual([
            ['/project/{link_caption}/blog', 'limit', ['default: 20 → 10']],
          ]);
        }
      }
      expect(seen).toEqual({
        baseline: false,
        'field-added': true,
        'endpoint-removed': true,
        'default-changed': true,
        'parameter-added': true,
      });
    } finally {
      await store.close();
      await h.close();
    }
  });
});
