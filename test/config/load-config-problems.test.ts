import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import {
  DISCORD_TOKEN,
  filesystem,
  SLACK_SIGNING_SECRET,
  SOLAR_KEY,
  validEnv,
  validFile,
} from './config-builders.js';
import { expectNoSecret, lines, load, problemsOf } from './helpers/load-results.js';

describe('each configuration problem says where and what to do', () => {
  it('file_not_found: names the path and the example file', () => {
    expect(lines(loadConfig({ env: {}, readFile: filesystem({}) }))).toEqual([
      './fundbot.config.json: the config file does not exist: copy fundbot.config.example.json to ./fundbot.config.json and edit it, or set FUNDBOT_CONFIG to its path',
    ]);
  });

  it('file_unreadable: says to check permissions', () => {
    const readFile = () => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    };
    expect(lines(loadConfig({ env: {}, readFile }))).toEqual([
      './fundbot.config.json: the config file cannot be read (EACCES): check that it is a file and readable by the user fundbot runs as',
    ]);
  });

  it('invalid_json: gives line and column of a missing comma', () => {
    const text = '{\n  "projects": []\n  "locale": "en"\n}\n';
    expect(lines(load(text))).toEqual([
      './fundbot.config.json:3:3: invalid JSON at line 3, column 3: expected "," between two values, found a string: fix the syntax (comments and trailing commas are allowed); fundbot.config.example.json is a valid starting point',
    ]);
  });

  it('invalid_json: locates a bare word without quoting the file', () => {
    const text = `{\n  "api": { "baseUrl": ${SOLAR_KEY} }\n}`;
    const [problem] = problemsOf(load(text));
    expect(problem).toMatchObject({ code: 'invalid_json', path: './fundbot.config.json:2:23' });
    expect(problem?.message).toBe(
      'invalid JSON at line 2, column 23: expected a value, found an unexpected character',
    );
    expectNoSecret(lines(load(text)).join('\n'));
  });

  it('invalid_json: reports unclosed strings and comments, single quotes and an empty file', () => {
    expect(problemsOf(load('{ "a": "open\n}'))[0]?.message).toBe(
      'invalid JSON at line 1, column 8: string is never closed (missing ")',
    );
    expect(problemsOf(load('{ /* note\n}'))[0]?.message).toContain(
      'a /* comment is never closed (missing */)',
    );
    expect(problemsOf(load("{\r\n  'projects': []\r\n}"))[0]?.message).toBe(
      'invalid JSON at line 2, column 3: strings need double quotes (") in JSON',
    );
    expect(problemsOf(load('  '))[0]?.message).toContain('the file is empty');
    expect(problemsOf(load('// only a comment\n'))[0]?.message).toContain('the file is empty');
  });

  it('comments and trailing commas are allowed, as in VS Code settings files', () => {
    const file = JSON.stringify(validFile(), null, 2);
    const commented = `// fundbot's settings\n${file.replace('{', '{\n  /* the projects to watch */').replace(/\n}$/, ',\n  // end\n}')}`;
    expect(load(file).ok).toBe(true);
    expect(load(commented)).toEqual(load(file));
  });

  it('unknown_key: suggests the field that was probably meant', () => {
    const result = load(validFile({ discord: { enabeld: true } }));
    expect(lines(result)).toContain('discord.enabeld: unknown field: did you mean "enabled"?');
  });

  it('unknown_key: lists the known fields when nothing is close', () => {
    const result = load(validFile({ digest: { time: '09:00', colour: 'blue' } }));
    expect(lines(result)).toContain(
      'digest.colour: unknown field: remove it; known fields here: enabled, time, timeZone',
    );
  });

  it('unknown_key: inside a project entry and at the top level', () => {
    const file = validFile({ projectz: [] });
    (file['projects'] as Record<string, unknown>[])[0] = {
      linkCaption: 'solar-kiosk',
      apiKeyEnv: 'SOLAR_KIOSK_API_KEY',
      milestone: [10],
    };
    const text = lines(load(file));
    expect(text).toContain('projectz: unknown field: did you mean "projects"?');
    expect(text).toContain('projects[0].milestone: unknown field: did you mean "milestones"?');
  });

  it('secret_in_file: an API key pasted instead of a variable name is flagged, not echoed', () => {
    const result = load(validFile({ projects: [{ linkCaption: 'solar-kiosk', apiKeyEnv: SOLAR_KEY }] }));
    const problems = problemsOf(result);
    expect(problems).toEqual([
      {
        code: 'secret_in_file',
        path: 'projects[0].apiKeyEnv',
        message: 'holds what looks like a platform API key; the config file must not contain secrets',
        fix: 'API keys are read only from the environment: name a variable in projects[].apiKeyEnv, export the key there and remove it from the file; since the key was written to disk, consider replacing it (project administration → API keys)',
      },
    ]);
  });

  it('secret_in_file: a Discord token and a store password in the file', () => {
    const result = load(
      validFile({
        discord: { enabled: true, token: DISCORD_TOKEN },
        store: { url: 'redis://:s3cretpass@redis:6379' },
      }),
    );
    const text = lines(result);
    expect(text).toContain(
      'discord.token: holds what looks like a Discord token; the config file must not contain secrets: move it to DISCORD_TOKEN and remove it from the file',
    );
    expect(text).toContain(
      'store.url: holds what looks like a password in a URL; the config file must not contain secrets: set the URL with its password in FUNDBOT_STORE and remove the password from the file',
    );
    expectNoSecret(text.join('\n'));
    expect(text.join('\n')).not.toContain('s3cretpass');
  });

  it('env_missing: the project key variable is not set', () => {
    const result = load(validFile(), validEnv({ SOLAR_KIOSK_API_KEY: undefined }));
    expect(lines(result)).toEqual([
      'projects[0].apiKeyEnv: SOLAR_KIOSK_API_KEY is not set: export it with the Project API key of "solar-kiosk" from project administration → API keys (scopes: project:read, fundings:read, incentives:read, blog:read, wall:read)',
    ]);
  });

  it('env_missing: an empty variable counts as not set', () => {
    const result = load(validFile(), validEnv({ SOLAR_KIOSK_API_KEY: '' }));
    expect(problemsOf(result).map((p) => p.code)).toEqual(['env_missing']);
  });

  it('key_format: a User API key where a Project API key belongs', () => {
    const result = load(validFile(), validEnv({ SOLAR_KIOSK_API_KEY: 'svc_user_AbCdEf0123456789' }));
    expect(lines(result)).toEqual([
      'projects[0].apiKeyEnv: SOLAR_KIOSK_API_KEY has a wrong prefix: a Project API key starts with svc_proj_…, this is a User API key (svc_user_…): export the Project API key of "solar-kiosk" from project administration → API keys',
    ]);
  });

  it('key_format: a key with a trailing newline', () => {
    const result = load(validFile(), validEnv({ SOLAR_KIOSK_API_KEY: `${SOLAR_KEY}\n` }));
    const [problem] = problemsOf(result);
    expect(problem).toMatchObject({
      code: 'key_format',
      message: 'SOLAR_KIOSK_API_KEY ends with a space or line break',
    });
    expect(problem?.fix).toContain('a copied space or line break makes the API reject it');
  });

  it('duplicate: the same project twice, and one key variable for two projects', () => {
    const result = load(
      validFile({
        projects: [
          { linkCaption: 'solar-kiosk', apiKeyEnv: 'SOLAR_KIOSK_API_KEY' },
          { linkCaption: 'Solar-Kiosk', apiKeyEnv: 'RIVER_CLEANUP_API_KEY' },
          { linkCaption: 'river-cleanup', apiKeyEnv: 'SOLAR_KIOSK_API_KEY' },
        ],
      }),
    );
    expect(lines(result)).toEqual([
      'projects[1].linkCaption: "Solar-Kiosk" is already listed as projects[0]: list each project once',
      'projects[2].apiKeyEnv: SOLAR_KIOSK_API_KEY is already the key variable of projects[0]: a Project API key works for one project only: give each project its own key and variable',
    ]);
  });

  it('platform token: Discord enabled without DISCORD_TOKEN', () => {
    const result = load(validFile(), validEnv({ DISCORD_TOKEN: undefined }));
    expect(lines(result)).toEqual([
      'discord.enabled: Discord is enabled but DISCORD_TOKEN is not set: export DISCORD_TOKEN with the bot token (Discord Developer Portal → your application → Bot → Reset Token), or set discord.enabled to false',
    ]);
  });

  it('platform token: a Discord token with the "Bot " prefix', () => {
    const result = load(validFile(), validEnv({ DISCORD_TOKEN: `Bot ${DISCORD_TOKEN}` }));
    expect(lines(result)).toEqual([
      'env DISCORD_TOKEN: contains whitespace or a "Bot " prefix: set only the token itself, without "Bot " and without spaces or line breaks',
    ]);
  });

  it('platform token: Slack Socket Mode without SLACK_APP_TOKEN', () => {
    const result = load(validFile(), validEnv({ SLACK_APP_TOKEN: undefined }));
    expect(lines(result)).toEqual([
      'env SLACK_APP_TOKEN: is not set: export SLACK_APP_TOKEN with an app-level token with connections:write (Slack app → Basic Information → App-Level Tokens); Socket Mode needs it',
    ]);
  });

  it('platform token: Slack HTTP mode without SLACK_SIGNING_SECRET', () => {
    const result = load(validFile({ slack: { enabled: true, mode: 'http' } }));
    expect(lines(result)).toEqual([
      'env SLACK_SIGNING_SECRET: is not set: export SLACK_SIGNING_SECRET with the signing secret (Slack app → Basic Information → App Credentials); HTTP mode verifies every request with it',
    ]);
  });

  it('platform token: a Slack bot token of the wrong kind', () => {
    const result = load(validFile(), validEnv({ SLACK_BOT_TOKEN: 'xoxp-1111-2222-userToken' }));
    expect(lines(result)).toEqual([
      'env SLACK_BOT_TOKEN: does not look like a token: it must start with xoxb- and contain no spaces: export SLACK_BOT_TOKEN with the bot token (Slack app → OAuth & Permissions → Bot User OAuth Token)',
    ]);
  });

  it('port_clash: Slack HTTP mode on the health/metrics port', () => {
    const result = load(
      validFile({ slack: { enabled: true, mode: 'http', port: 8080 } }),
      validEnv({ SLACK_SIGNING_SECRET, PORT: '8080' }),
    );
    expect(lines(result)).toEqual([
      'slack.port: Slack HTTP mode and the health/metrics server both want port 8080: give slack.port and http.port (or PORT) different values',
    ]);
  });

  it('bad time zone', () => {
    const result = load(validFile({ digest: { time: '09:00', timeZone: 'Europe/Berln' } }));
    expect(lines(result)).toEqual([
      'digest.timeZone: is not a time zone known to this runtime: use an IANA name such as "Europe/Berlin": use an IANA time zone such as "Europe/Berlin" or "UTC"',
    ]);
  });

  it('bad HH:MM', () => {
    for (const time of ['9:00', '24:00', '09:60', 'noon']) {
      const result = load(validFile({ digest: { time, timeZone: 'UTC' } }));
      expect(lines(result)).toEqual([
        'digest.time: must be a 24-hour time "HH:MM" such as "09:00": write the local time as "HH:MM", e.g. "09:00" or "18:30"',
      ]);
    }
  });

  it('wrong types, enums and ranges', () => {
    const result = load(
      validFile({
        locale: 'fr',
        slack: { enabled: 'yes', mode: 'socket' },
        engine: { reservePct: 95 },
        http: { port: 70_000 },
      }),
    );
    expect(lines(result)).toEqual([
      'locale: invalid option: expected one of "en"|"de": use "en" or "de"',
      'slack.enabled: expected boolean, received string: see docs/configuration.md, section slack',
      'engine.reservePct: too big: expected number to be <=90: use a percentage between 0 and 90',
      'http.port: too big: expected number to be <=65535: see docs/configuration.md, section http',
    ]);
  });

  it('required fields: projects must list at least one project with its fields', () => {
    expect(lines(load({ api: { baseUrl: 'https://api.crowdfunding.test' } }))).toEqual([
      'projects: is required (array): add {"linkCaption": "<slug>", "apiKeyEnv": "<VARIABLE>"} for each project to watch',
    ]);
    expect(
      lines(load({ api: { baseUrl: 'https://api.crowdfunding.test' }, projects: [{ linkCaption: 'x' }] })),
    ).toEqual([
      'projects[0].apiKeyEnv: is required (string): name the variable holding the key, e.g. "SOLAR_KIOSK_API_KEY", and export the key there',
    ]);
  });

  it('api.baseUrl: missing, insecure or with credentials', () => {
    expect(lines(load(validFile({ api: {} })))).toEqual([
      "api.baseUrl: no API base URL is configured: set api.baseUrl in the file or FUNDBOT_API_BASE_URL to the address of the platform's Project Data API (fundbot does not guess it, since it sends API keys there)",
    ]);
    expect(lines(load(validFile({ api: { baseUrl: 'http://api.example.org' } })))).toEqual([
      'api.baseUrl: uses plain http to a remote host, which would send the API keys unencrypted: use https://, or http:// only for localhost (a local fake or the simulator)',
    ]);
    expect(lines(load(validFile(), validEnv({ FUNDBOT_API_BASE_URL: 'not a url' })))).toEqual([
      'env FUNDBOT_API_BASE_URL: is not an absolute URL: write it with scheme and host, e.g. https://api.example.org',
    ]);
  });

  it('env_invalid: LOG_LEVEL, LOG_FORMAT and PORT', () => {
    expect(
      lines(load(validFile(), validEnv({ LOG_LEVEL: 'verbose', LOG_FORMAT: 'colour', PORT: 'eighty' }))),
    ).toEqual([
      'env LOG_LEVEL: is not a log level: use one of fatal, error, warn, info, debug, trace, silent, or unset it to use logLevel from the file',
      'env LOG_FORMAT: is not a log format: use one of json, pretty, or unset it to use logFormat from the file',
      'env PORT: is not a port number: set it to a number between 1 and 65535, or unset it to use http.port from the file',
    ]);
  });

  it('store.url: an unsupported scheme', () => {
    expect(lines(load(validFile({ store: { url: 'postgres://db/fundbot' } })))).toEqual([
      'store.url: is not a supported store URL: use sqlite://./data/fundbot.sqlite (one process), redis://host:6379 (several replicas) or memory: (tests; state is lost on exit)',
    ]);
  });
});
