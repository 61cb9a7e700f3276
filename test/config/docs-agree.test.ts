import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEDGE_AFTER_MS } from '../../src/api/index.js';
import { configFileSchema, parseConfig } from '../../src/config/index.js';
import { DEFAULT_MAX_REQUESTS_PER_SECOND } from '../../src/engine/context/engine-settings.js';
import { validFile } from './config-builders.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${repoRoot}${path}`, 'utf8');

describe('the documentation agrees with the schema', () => {
  it('the README names the reserve default the schema applies', () => {
    const reservePct = configFileSchema.shape.engine.parse({}).reservePct;
    const readme = read('README.md');
    const stated = /`engine\.reservePct`, default (\d+)%/.exec(readme)?.[1];
    expect(Number(stated)).toBe(reservePct);
  });

  it('docs/configuration.md names the defaults the code applies for copies of slow reads and the polling ceiling', () => {
    const docs = read('docs/configuration.md');
    const defaultOf = (field: string) =>
      Number(
        new RegExp(`\\| \`${field.replace('.', '\\.')}\` \\|[^|]*\\| \`([\\d.]+)\` \\|`).exec(docs)?.[1],
      );
    expect(defaultOf('api.hedgeAfterMs')).toBe(DEFAULT_HEDGE_AFTER_MS);
    expect(configFileSchema.shape.api.parse({}).hedgeAfterMs).toBe(DEFAULT_HEDGE_AFTER_MS);
    expect(defaultOf('engine.maxRequestsPerSecond')).toBe(DEFAULT_MAX_REQUESTS_PER_SECOND);
  });

  it('projects[].defaultLocale, which nothing applied, is gone from the schema, the docs and the example', () => {
    const env = {
      SOLAR_KIOSK_API_KEY: 'x',
      RIVER_CLEANUP_API_KEY: 'y',
      DISCORD_TOKEN: 'd',
      SLACK_BOT_TOKEN: 'b',
    };
    const file = validFile();
    const projects = file.projects as Record<string, unknown>[];
    const withLocale = { ...file, projects: [{ ...projects[0], defaultLocale: 'de' }] };
    const result = parseConfig(JSON.stringify(withLocale), { env, source: 'test.json' });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems).toContainEqual(
        expect.objectContaining({ code: 'unknown_key', path: 'projects[0].defaultLocale' }),
      );
    expect(read('docs/configuration.md')).not.toContain('defaultLocale');
    expect(read('fundbot.config.example.json')).not.toContain('defaultLocale');
  });
});
