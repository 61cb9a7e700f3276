import { describe, expect, it } from 'vitest';
import { scrubSecrets } from '../../src/lib/scrub-secrets.js';
import { createLogger, type Logger } from '../../src/ops/logger.js';

const PROJECT_KEY = 'svc_proj_LoggerTestKey0123456789abc';
const USER_KEY = 'svc_user_LoggerUserKey9876543210';
const BOT_TOKEN = 'xoxb-1111111111-2222222222-AbCdEfGhIjKlMnOpQr';
const APP_TOKEN = 'xapp-1-A0123456789-1234567890123-abcdef0123456789';
const DISCORD_TOKEN = 'MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWsAbCdEf';
const SIGNING_SECRET = '8f742231b10e8888abcd99aa85a5ffee';
const SECRETS = [PROJECT_KEY, USER_KEY, BOT_TOKEN, APP_TOKEN, DISCORD_TOKEN, SIGNING_SECRET];

/** A logger writing into an array of parsed JSON records (and the raw lines). */
function capture(options: { knownSecrets?: string[] } = {}) {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line) => lines.push(line) },
    ...options,
  });
  const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, records };
}

function expectClean(lines: readonly string[]): void {
  const all = lines.join('');
  for (const secret of SECRETS) expect(all).not.toContain(secret);
  expect(all).not.toMatch(/svc_(proj|user)_[A-Za-z0-9]|xox[a-z]-[A-Za-z0-9]|xapp-[0-9]/);
}

describe('logger redaction', () => {
  it('removes keys with any visible characters the key parser accepts, also right after a backslash', () => {
    const { logger, lines, records } = capture();
    const odd = ['svc_proj_AbC+dEf/GhI=JkL', 'svc_user_x$y%z*w@v#u', 'svc_proj_abc.def~ghi!jkl'];
    logger.warn({ path: 'C:\\data\\svc_proj_ABCDEFGH12345678', keys: odd }, `keys ${odd.join(' ')}`);
    const all = lines.join('');
    for (const fragment of ['dEf/GhI', 'z*w@v#u', 'ghi!jkl', 'ABCDEFGH12345678'])
      expect(all).not.toContain(fragment);
    expect(records()[0]?.['msg']).toBe('keys [redacted] [redacted] [redacted]');
  });

  it('removes a key from the message', () => {
    const { logger, lines, records } = capture();
    logger.info(`loaded key ${PROJECT_KEY} for solar-kiosk`);
    expectClean(lines);
    expect(records()[0]?.['msg']).toBe('loaded key [redacted] for solar-kiosk');
  });

  it('removes tokens nested in objects and arrays, and in field names', () => {
    const { logger, lines, records } = capture();
    logger.warn(
      {
        request: {
          url: `https://x.example/?t=${USER_KEY}`,
          notes: [`slack ${BOT_TOKEN}`, { deep: { deeper: APP_TOKEN } }],
        },
        [DISCORD_TOKEN]: 1,
      },
      'request failed',
    );
    expectClean(lines);
    expect(records()[0]?.['request']).toEqual({
      url: 'https://x.example/?t=[redacted]',
      notes: ['slack [redacted]', { deep: { deeper: '[redacted]' } }],
    });
  });

  it('removes keys from an error message, its stack and its cause', () => {
    const { logger, lines, records } = capture();
    const cause = new Error(`socket closed while sending ${DISCORD_TOKEN}`);
    const error = new Error(`401 for key ${PROJECT_KEY}`, { cause });
    logger.error({ err: error }, 'poll failed');
    logger.error(error);
    expectClean(lines);
    const [first, second] = records();
    const err = (first?.['err'] ?? {}) as { message?: string; stack?: string };
    // pino's error serialiser appends the cause's message to the error's own.
    expect(err.message).toBe('401 for key [redacted]: socket closed while sending [redacted]');
    expect(err.stack).toContain('401 for key [redacted]');
    expect(second?.['msg']).toBe('401 for key [redacted]');
  });

  it('censors authorization headers and token fields whatever their shape', () => {
    const { logger, lines, records } = capture();
    logger.debug({
      headers: { authorization: 'Bearer opaque-value-without-shape', accept: 'application/json' },
      slack: { signingSecret: 'plainlookingvalue1234', token: 'another-opaque-thing' },
      apiKey: 'opaque',
    });
    const [record] = records();
    expect(record?.['headers']).toEqual({ authorization: '[redacted]', accept: 'application/json' });
    expect(record?.['slack']).toEqual({ signingSecret: '[redacted]', token: '[redacted]' });
    expect(record?.['apiKey']).toBe('[redacted]');
    expect(lines.join('')).not.toContain('opaque');
  });

  it('scrubs a Bearer credential and a URL password in free text', () => {
    const { logger, records } = capture();
    logger.info('sent Authorization: Bearer abc.def-ghi to redis://:hunter2hunter2@redis:6379/0');
    expect(records()[0]?.['msg']).toBe(
      'sent Authorization: Bearer [redacted] to redis://[redacted]@redis:6379/0',
    );
  });

  it('scrubs exact known secrets that have no recognisable shape', () => {
    const { logger, lines } = capture({ knownSecrets: [SIGNING_SECRET] });
    logger.info({ detail: `signature base used ${SIGNING_SECRET}` }, `secret=${SIGNING_SECRET}`);
    expectClean(lines);
  });

  it('keeps every line valid JSON when a secret follows an escape sequence', () => {
    const { logger, lines, records } = capture();
    logger.info(`line one\n${DISCORD_TOKEN}\t${PROJECT_KEY}\n"${BOT_TOKEN}"`);
    expectClean(lines);
    expect(records()[0]?.['msg']).toBe('line one\n[redacted]\t[redacted]\n"[redacted]"');
  });

  it('cuts a huge field (a server’s whole error page) so the line stays valid JSON, with no secret left', () => {
    const { logger, lines, records } = capture();
    const page = `${PROJECT_KEY} ${'<div>oops</div> '.repeat(20_000)}${BOT_TOKEN}`;
    logger.warn({ body: page }, 'the API answered 500');
    expectClean(lines);
    const body = String(records()[0]?.['body']);
    expect(body.startsWith('[redacted] <div>oops</div>')).toBe(true);
    expect(body).toMatch(/ …\[\d+ characters cut\]$/);
    expect(body.length).toBeLessThan(9 * 1024);
  });

  it('keeps child bindings and the level name, and fits the narrow Logger interface', () => {
    const { logger, records } = capture();
    const narrow: Logger = logger;
    narrow.child({ component: 'poller', project: 'solar-kiosk' }).info({ feed: 'wall' }, 'polled');
    expect(records()[0]).toMatchObject({
      level: 'info',
      component: 'poller',
      project: 'solar-kiosk',
      feed: 'wall',
      msg: 'polled',
    });
  });

  it('honours the level', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', destination: { write: (line) => lines.push(line) } });
    logger.info('hidden');
    logger.warn('shown');
    expect(lines).toHaveLength(1);
  });
});

describe('the readable format for terminals (format: pretty)', () => {
  it('writes a time, the level and the message, the fields below, and no JSON line', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      format: 'pretty',
      colorize: false,
      base: { service: 'fundbot', version: '1.2.3' },
      destination: { write: (line) => lines.push(line) },
    });
    logger.child({ project: 'solar-kiosk' }).warn({ feed: 'wall' }, 'the wall answered 503');
    expect(lines).toHaveLength(1);
    const [first, ...fields] = (lines[0] ?? '').trimEnd().split('\n');
    expect(first).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: the wall answered 503$/);
    expect(fields.map((f) => f.trim())).toEqual([
      'version: "1.2.3"',
      'project: "solar-kiosk"',
      'feed: "wall"',
    ]);
    expect(lines[0]).not.toContain('{"');
  });

  it('shows only what the JSON line would: secrets are scrubbed before formatting', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'debug',
      format: 'pretty',
      colorize: false,
      knownSecrets: [SIGNING_SECRET],
      destination: { write: (line) => lines.push(line) },
    });
    logger.error(
      { token: BOT_TOKEN, err: new Error(`rejected ${PROJECT_KEY}`), note: `secret ${SIGNING_SECRET}` },
      `user key ${USER_KEY}`,
    );
    expectClean(lines);
    expect(lines.join('')).toContain('ERROR: user key [redacted]');
  });

  it('colours only when asked (or when the terminal supports it)', () => {
    const lines: string[] = [];
    createLogger({
      level: 'info',
      format: 'pretty',
      colorize: true,
      destination: { write: (l) => lines.push(l) },
    }).info('hi');
    expect(lines[0]).toMatch(/\u001b\[\d+m/);
  });
});

describe('scrubSecrets', () => {
  it('leaves ordinary text alone', () => {
    const text = 'the bot polled solar-kiosk: 3 new supporters, funding 1.234,00 EUR (bearer of news)';
    expect(scrubSecrets(text.replace('(bearer of news)', ''))).toBe(text.replace('(bearer of news)', ''));
    expect(scrubSecrets('stored value under "projects/solar-kiosk/feeds/wall"')).toBe(
      'stored value under "projects/solar-kiosk/feeds/wall"',
    );
  });
});
