/**
 * Issue 24, hosted fundbot on Discord (HTTP interactions) through startBot: /connect opens a modal for
 * server admins, its submission connects the project (key checked against the simulator, sealed), /projects
 * shows it to that server only, /disconnect removes it.
 */
import { randomBytes } from 'node:crypto';
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/ops/index.js';
import { demoLinkCaption, demoProjectSeed, demoTeam, startSimulator } from '../../src/simulator/index.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import {
  connectModalSubmission,
  type SignedInteractions,
  signedInteractions,
} from '../fakes/discord/signed-interactions.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { freePort } from '../support/redis-server.js';
import { discordHttpConfig } from './helpers/discord-http-config.js';
import { configOf, roomyLimits, startBotInTest } from './helpers/in-process-bot.js';

const admin = PermissionFlagsBits.ManageGuild;

/** The text of an interaction's answer: at once (type 4) or, deferred (type 5), from the webhook edit. */
async function answerText(
  fake: FakeDiscord,
  signed: SignedInteractions,
  url: string,
  payload: Record<string, unknown> & { token: string },
): Promise<string> {
  const answer = await signed.post(url, payload);
  expect(answer.status).toBe(200);
  const body = answer.body as { type: number; data?: unknown };
  if (body.type === 4) return JSON.stringify(body.data);
  expect(body.type).toBe(5);
  const edit = await fake.waitForRequest(
    (r) => r.method === 'PATCH' && r.path.includes(payload.token) && r.path.endsWith('@original'),
    10_000,
  );
  return JSON.stringify(edit.body);
}

describe('hosted fundbot on Discord HTTP interactions, through startBot', () => {
  it('/connect opens a modal for admins; its submission connects the project for that server only', async () => {
    const sim = closeAfterTest(await startSimulator({ limits: roomyLimits }));
    sim.createProject({ ...demoProjectSeed(Date.now()), linkCaption: 'team-garden', title: 'Team Garden' });
    sim.createProject({
      ...demoProjectSeed(Date.now()),
      linkCaption: 'second-garden',
      title: 'Second Garden',
    });
    const discord = closeAfterTest(await startFakeDiscord());
    const fake = discord;
    const signed = signedInteractions(fake);
    const port = await freePort();
    const { json, env } = discordHttpConfig(sim, fake, signed, port, {
      sections: { hosted: { enabled: true, maxProjectsPerWorkspace: 1 } },
      env: { FUNDBOT_ENCRYPTION_KEY: randomBytes(32).toString('base64') },
    });
    const config = configOf(json, env);
    await startBotInTest(config, silentLogger, 'e2e');
    const url = `http://127.0.0.1:${port}/discord/interactions`;

    // A member without Manage Server gets no form.
    const plain = await signed.post(url, signed.chatInput({ command: 'connect' }));
    expect(JSON.stringify(plain.body)).not.toContain('fundbot_connect');

    const opened = await signed.post(url, signed.chatInput({ command: 'connect', permissions: admin }));
    expect(opened.body).toMatchObject({ type: 9, data: { custom_id: 'fundbot_connect' } });

    const submission = (project: string, key: string, guildId?: string) =>
      connectModalSubmission(signed, project, key, { permissions: admin, ...(guildId ? { guildId } : {}) });
    // Refused before anything is stored: not a key, a User key, the key of another project (whose project page
    // the platform serves as the public view: only a list read tells), a revoked key, a key without
    // fundings:read, the operator's project. Each says what is wrong and what to do; none is polled after.
    const simulator = sim;
    simulator.otherKeyProjectPage = 'public-view';
    const refusedWith = async (key: string, expected: string) => {
      const before = simulator.requests.length;
      expect(await answerText(fake, signed, url, submission('team-garden', key))).toContain(expected);
      return simulator.requests.slice(before).filter((r) => r.path.startsWith('/project/team-garden')).length;
    };
    expect(await refusedWith('not-a-key', 'That is not a Project API key')).toBe(0);
    expect(
      await refusedWith(
        simulator.issueUserKey(demoTeam.ownerId, { scopes: ['project:read'] }),
        'That is a User API key',
      ),
    ).toBe(0);
    // The probes: one request per feed fundbot polls (project, fundings, wall, blog, rewards).
    expect(
      await refusedWith(simulator.issueProjectKey('second-garden'), 'This key belongs to another project'),
    ).toBe(5);
    const revoked = simulator.issueProjectKey('team-garden');
    simulator.revokeKey(revoked);
    expect(await refusedWith(revoked, 'The platform refuses this key (invalid or deleted)')).toBe(5);
    const noFundings = simulator.issueProjectKey('team-garden', {
      scopes: ['project:read', 'wall:read', 'blog:read', 'incentives:read'],
    });
    expect(await refusedWith(noFundings, 'This key lacks fundings:read')).toBe(5);
    expect(
      await answerText(fake, signed, url, submission(demoLinkCaption, sim.issueProjectKey(demoLinkCaption))),
    ).toContain("watched by this fundbot's operator already");
    // Nothing stored, nothing polled: no further request for the project after the refusals.
    const afterRefusals = simulator.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(simulator.requests.slice(afterRefusals).filter((r) => r.path.includes('team-garden'))).toEqual([]);

    const key = sim.issueProjectKey('team-garden');
    const connected = await answerText(fake, signed, url, submission('team-garden', key));
    expect(connected).toContain('team-garden is connected');
    expect(connected).not.toContain(key);

    // The per-workspace limit (1 here), and one workspace per project.
    expect(
      await answerText(fake, signed, url, submission('second-garden', sim.issueProjectKey('second-garden'))),
    ).toContain('the most this fundbot allows');
    expect(
      await answerText(fake, signed, url, submission('team-garden', key, '300000000000000099')),
    ).toContain('connected by another server');

    const here = await answerText(fake, signed, url, signed.chatInput({ command: 'projects' }));
    expect(here).toContain('team-garden');
    const elsewhere = await answerText(
      fake,
      signed,
      url,
      signed.chatInput({ command: 'projects', guildId: '300000000000000099' }),
    );
    expect(elsewhere).not.toContain('team-garden');

    // /status without a project: the server's overview (funding, channels, health) of every project it can use.
    const overview = await answerText(fake, signed, url, signed.chatInput({ command: 'status' }));
    expect(overview).toContain('Team Garden (team-garden)');
    // Discord says server, not workspace (issue 30).
    expect(overview).toContain('fundbot in this server');
    expect(overview).toContain('from fundbot');
    expect(overview).toContain('no channel yet');

    const gone = await answerText(
      fake,
      signed,
      url,
      signed.chatInput({
        command: 'disconnect',
        permissions: admin,
        options: [{ name: 'project', value: 'team-garden' }],
      }),
    );
    expect(gone).toContain('team-garden is disconnected');
  }, 40_000);
});
