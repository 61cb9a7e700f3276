/**
 * Journey: `npm start` (src/main.ts under tsx) on Slack in Socket Mode, against the local Slack fake and the
 * platform simulator, driven only from outside.
 */
import { expect } from 'vitest';
import { startBotProcess, tsxEntry } from './harness/bot-process.js';
import { defineChatJourney } from './harness/chat-journey.js';
import { journeyStep } from './harness/known-defects.js';
import { startSlackDriver } from './harness/slack-driver.js';

defineChatJourney('journey: npm start on Slack in Socket Mode', {
  name: 'slack-socket',
  platform: 'slack',
  transport: 'socket',
  entry: () => tsxEntry,
  startDriver: () => startSlackDriver('socket'),
  platformSteps: (state) => {
    journeyStep('/fundbot alone answers the help, with the subcommands', undefined, async () => {
      const fake = state.driver.fake;
      const responseUrl = fake.responseUrl();
      const id = responseUrl.split('/').at(-1);
      fake.sendSlashCommand({
        command: '/fundbot',
        text: '',
        response_url: responseUrl,
        team_id: 'T0FAKE',
        channel_id: state.driver.channel,
        user_id: 'U0MEMBER',
        user_name: 'member',
      });
      const help = await fake.waitFor(() => fake.responses.find((r) => r.id === id), 'the help', 10_000);
      expect(JSON.stringify(help.body)).toContain('/fundbot funding');
    });

    journeyStep(
      'npm run commands:slack prints the app manifest: one /fundbot command, Socket Mode or the HTTP URL, channels:read',
      undefined,
      async () => {
        const manifest = async (args: string[]) => {
          const run = startBotProcess({
            name: 'npm run commands:slack',
            entry: tsxEntry,
            script: 'commands/slack-manifest.ts',
            args,
            cwd: state.world.dir,
            env: {},
          });
          expect(await run.exited(), run.output()).toBe(0);
          return JSON.parse(run.stdout()) as Manifest;
        };
        const socket = await manifest([]);
        expect(socket.features.slash_commands.map((c) => c.command)).toEqual(['/fundbot']);
        expect(socket.settings.socket_mode_enabled).toBe(true);
        expect(socket.oauth_config.scopes.bot).toEqual(
          expect.arrayContaining(['channels:read', 'groups:read']),
        );
        const http = await manifest(['--http', 'https://bot.example.com']);
        expect(http.settings.socket_mode_enabled).toBe(false);
        expect(http.features.slash_commands[0]?.url).toBe('https://bot.example.com/slack/events');
      },
      30_000,
    );
  },
});

/** The parts of the Slack app manifest the README speaks of. */
interface Manifest {
  features: { slash_commands: { command: string; url?: string }[] };
  settings: { socket_mode_enabled: boolean };
  oauth_config: { scopes: { bot: string[] } };
}
