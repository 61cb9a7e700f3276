import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatConfigProblems } from '../../src/config/config-problem.js';
import { resolveStartMode } from '../../src/config/resolve-start-mode.js';
import {
  DISCORD_TOKEN,
  filesystem,
  SLACK_BOT_TOKEN,
  validEnv,
  validFile,
  withConfig,
} from './config-builders.js';

describe('resolveStartMode', () => {
  it('starts the demo when there is no config file and no platform token', () => {
    const start = resolveStartMode({ env: { PATH: '/usr/bin' }, readFile: filesystem({}) });
    expect(start).toEqual({
      mode: 'demo',
      reason:
        'no config file at ./fundbot.config.json and no chat platform token (DISCORD_TOKEN, SLACK_BOT_TOKEN, SLACK_APP_TOKEN, SLACK_CLIENT_SECRET): starting the local demo',
    });
  });

  it('refuses the demo when a platform token is set but the config file is missing', () => {
    const start = resolveStartMode({ env: { DISCORD_TOKEN, SLACK_BOT_TOKEN }, readFile: filesystem({}) });
    if (start.mode !== 'invalid') throw new Error(`expected invalid, got ${start.mode}`);
    expect(formatConfigProblems(start.problems, start.source)).toBe(
      [
        'fundbot cannot start: 1 problem in the configuration (./fundbot.config.json)',
        '  1. ./fundbot.config.json: DISCORD_TOKEN and SLACK_BOT_TOKEN are set but the config file does not exist: copy fundbot.config.example.json to ./fundbot.config.json (or set FUNDBOT_CONFIG) and list your projects there; unset the tokens to run the demo instead',
        'See docs/configuration.md for every field.',
      ].join('\n'),
    );
    expect(formatConfigProblems(start.problems)).not.toContain(DISCORD_TOKEN);
  });

  it('starts the bot with a valid file', () => {
    const start = resolveStartMode({ env: validEnv(), readFile: withConfig(validFile()) });
    expect(start.mode).toBe('bot');
    expect(start.mode === 'bot' && start.config.projects.length).toBe(2);
  });

  it('reports the problems of an existing but invalid file, even without tokens', () => {
    const start = resolveStartMode({ env: {}, readFile: withConfig('{ "projects": [ }') });
    expect(start.mode).toBe('invalid');
    expect(start.mode === 'invalid' && start.problems[0]?.code).toBe('invalid_json');
  });

  it('FUNDBOT_CONFIG naming a missing file is an error, not the demo', () => {
    const fs = filesystem({});
    const start = resolveStartMode({ env: { FUNDBOT_CONFIG: '/config/fundbot.config.json' }, readFile: fs });
    expect(fs.reads).toEqual(['/config/fundbot.config.json']);
    if (start.mode !== 'invalid') throw new Error(`expected invalid, got ${start.mode}`);
    expect(formatConfigProblems(start.problems, start.source)).toContain(
      'env FUNDBOT_CONFIG: names /config/fundbot.config.json, which does not exist: fix the path (or mount the file there), or unset FUNDBOT_CONFIG',
    );
  });
});

describe('in the Docker image (FUNDBOT_CONTAINER set)', () => {
  it('no config and no tokens is an error that says how to mount a config, not the demo', () => {
    const start = resolveStartMode({
      env: { FUNDBOT_CONTAINER: 'docker', FUNDBOT_CONFIG: '/config/fundbot.config.json' },
      readFile: filesystem({}),
    });
    if (start.mode !== 'invalid') throw new Error(`expected invalid, got ${start.mode}`);
    expect(formatConfigProblems(start.problems, start.source)).toContain(
      '/config/fundbot.config.json: no config file in the container: mount one: docker run -v "$PWD/fundbot.config.json:/config/fundbot.config.json:ro"',
    );
  });

  it('FUNDBOT_HEALTH_HOST sets where the health server listens (the image: 0.0.0.0; elsewhere 127.0.0.1)', () => {
    const env = { ...validEnv(), FUNDBOT_HEALTH_HOST: '0.0.0.0' };
    const inImage = resolveStartMode({ env, readFile: withConfig(validFile()) });
    const elsewhere = resolveStartMode({ env: validEnv(), readFile: withConfig(validFile()) });
    if (inImage.mode !== 'bot' || elsewhere.mode !== 'bot') throw new Error('expected bot mode');
    expect(inImage.config.http.host).toBe('0.0.0.0');
    expect(elsewhere.config.http.host).toBe('127.0.0.1');
  });
});

describe('the Dockerfile', () => {
  const dockerfile = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));

  it('sets no variable that would override the mounted config, and tells fundbot it runs in a container', () => {
    expect(runtime).not.toMatch(/^\s*(ENV\s+)?(FUNDBOT_STORE|PORT)=/m);
    expect(runtime).toMatch(/FUNDBOT_CONTAINER=\S+/);
    expect(runtime).toMatch(/FUNDBOT_HEALTH_HOST=0\.0\.0\.0/);
  });

  it('runs compiled JavaScript on an LTS Node with the packaged chart font and no system font layer, without tsx', () => {
    expect(dockerfile).toMatch(/ARG NODE_IMAGE=node:(22|24)-/);
    // The chart draws with @fontsource/inter from node_modules (src/digest/chart-font.ts): no apt layer at all.
    expect(runtime).not.toMatch(/apt-get|fonts-/);
    expect(runtime).toContain('CMD ["node", "dist/src/main.js"]');
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies)).toContain('@fontsource/inter');
    expect(Object.keys(pkg.dependencies)).not.toContain('tsx');
  });

  it('installs the dependencies once (a native SQLite binding compiles once), prunes the dev ones, and copies them', () => {
    const instructions = dockerfile.split('\n').filter((line) => !line.trimStart().startsWith('#'));
    expect(instructions.filter((line) => /\bnpm (ci|install)\b/.test(line))).toHaveLength(1);
    expect(dockerfile).toMatch(/npm run build \\\n\s*&& npm prune --omit=dev/);
    expect(runtime).toContain('COPY --from=build /app/node_modules ./node_modules');
    expect(runtime).not.toMatch(/\bnpm (ci|install)\b/);
  });
});
