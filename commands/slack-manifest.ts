/**
 * Prints the Slack app manifest (JSON) generated from src/domain/command-definitions.ts.
 *
 *   npm run commands:slack                                  # Socket Mode (no public URL)
 *   npm run commands:slack -- --http https://bot.example.com  # HTTP mode: commands go to <url>/slack/events
 *   npm run commands:slack -- --name "fundbot staging"
 *   npm run commands:slack -- --http https://bot.example.com --oauth  # many workspaces: install at <url>/slack/install
 *
 * Then: api.slack.com/apps → Create New App → From an app manifest, paste it;
 * install the app, copy the bot token (and for Socket Mode create an app-level
 * token with connections:write).
 */
import { parseArgs } from 'node:util';
import { buildSlackAppManifest } from '../src/adapters/slack/app-manifest.js';
import { commandDefinitions } from '../src/domain/command-definitions.js';

function main(argv: readonly string[]): void {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      http: { type: 'string' },
      name: { type: 'string' },
      oauth: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      'Usage: npm run commands:slack [-- --http https://bot.example.com [--oauth]] [--name fundbot]\n',
    );
    return;
  }
  const manifest = buildSlackAppManifest(commandDefinitions, {
    ...(values.http ? { httpBaseUrl: values.http } : {}),
    ...(values.name ? { appName: values.name } : {}),
    ...(values.oauth ? { oauth: true } : {}),
  });
  process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
