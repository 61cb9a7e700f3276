/**
 * Discord refusing the command definitions (400 Invalid Form Body): the error names the file
 * that holds them, and that file exists (it named commands/definitions.ts, which does not).
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDiscordCommands } from '../../src/adapters/discord/register-commands.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const token = 'MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.RefusedDefinitionsTokenAbCdEf';

let server: Server;
let apiUrl = '';
beforeAll(async () => {
  // Discord's answer to a command body it cannot accept.
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        code: 50035,
        message: 'Invalid Form Body',
        errors: {
          '0': {
            description: {
              _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }],
            },
          },
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('registerDiscordCommands when Discord refuses the definitions', () => {
  it('names the definitions file, which exists, and never the token', async () => {
    const error = await registerDiscordCommands({ token, applicationId: '100000000000000002', apiUrl }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/^Discord rejected the command definitions \(400\): .*Invalid Form Body/);
    const named = /check (\S+\.ts) against Discord's limits/.exec(error?.message ?? '')?.[1];
    expect(named).toBe('src/domain/command-definitions.ts');
    expect(existsSync(`${repoRoot}${named}`)).toBe(true);
    expect(error?.message).not.toContain(token);
  });
});
