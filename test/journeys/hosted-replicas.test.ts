/**
 * Journey (issue 30, hosted fundbot tells the truth): three replicas of the compiled entry (`node dist/src/main.js`) on
 * a real redis-server started here, hosting projects connected from Slack (OAuth) and Discord (HTTP interactions), each
 * connect and command sent to the next replica. Another project's key is refused with its reason on both platforms and
 * never polled; 20 connects, each followed 200 ms after its confirmation by a supporter, get all 20 announced (the
 * baseline is read before "watches it from now on"); the App Home, Discord's /status, /fundbot status and /healthz say
 * the same on every replica; an uninstall leaves no key of the workspace in Redis.
 */
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultGuild } from '../fakes/discord/fake-discord.js';
import { connectModalSubmission } from '../fakes/discord/signed-interactions.js';
import { type RedisServer, skipRedisTests, startRedisServer } from '../support/redis-server.js';
import { allStoreKeys } from '../support/store-keys.js';
import { waitUntil } from '../support/wait-until.js';
import { killAllBots } from './harness/bot-process.js';
import { compiledEntryForFile } from './harness/compiled-entry.js';
import { type HostedFleet, startHostedFleet } from './harness/hosted-fleet.js';
import { journeyProjectSeed } from './harness/journey-project.js';
import { type JourneyWorld, startJourneyWorld } from './harness/journey-world.js';

/** The compiled entry point (as the image runs it), built once per test run. */
const compiledEntry = compiledEntryForFile();

const team = { teamId: 'T0FLEET', name: 'Fleet Team', admins: ['U0ADMIN'] };
const admin = PermissionFlagsBits.ManageGuild;
const discordChannel = defaultGuild.channels[0]?.id ?? '';
const projects = Array.from({ length: 20 }, (_, i) => `garden-${String(i).padStart(2, '0')}`);
/** Even ones connected from Slack, odd ones from Discord. */
const fromSlack = (i: number) => i % 2 === 0;

let world: JourneyWorld;
let redis: RedisServer;
let fleet: HostedFleet;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(skipRedisTests())('journey: hosted fundbot on three replicas (Slack and Discord)', () => {
  beforeAll(async () => {
    world = await startJourneyWorld('hosted-replicas');
    for (const linkCaption of [...projects, 'foreign-garden'])
      world.sim.createProject({ ...journeyProjectSeed(Date.now()), linkCaption, title: linkCaption });
    // As the platform was measured: another project's key gets the project page (its public view).
    world.sim.otherKeyProjectPage = 'public-view';
    // A key's fundings are polled every few seconds: what a team subscribes at once is in place before then.
    world.sim.setLimits({ pro: { perMinute: 40, perDay: 1_000_000 } });
    redis = await startRedisServer();
    fleet = await startHostedFleet(world, redis, compiledEntry());
  }, 240_000);

  afterAll(async () => {
    await fleet?.close();
    killAllBots();
    await redis?.stop();
    await world?.close();
  });

  const discordConnect = (project: string, key: string) =>
    connectModalSubmission(fleet.signed, project, key, { permissions: admin });
  const discordCommand = (command: string, options: Record<string, string> = {}) =>
    fleet.signed.chatInput({
      command,
      permissions: admin,
      options: Object.entries(options).map(([name, value]) => ({ name, value })),
    });

  it('refuses another project key on both platforms and never polls; announces all 20 supporters right after their connects', async () => {
    await fleet.install(team, 0);
    expect(await fleet.slackCommand(1, team, 'U0ADMIN', 'pacing supporters live', 'C0TEAM')).toContain(
      'live',
    );
    expect(
      await fleet.discordInteraction(2, discordCommand('pacing', { kind: 'supporters', mode: 'live' })),
    ).toContain('live');

    const from = world.sim.requests.length;
    const foreign = world.sim.issueProjectKey('foreign-garden');
    expect(await fleet.slackConnect(0, team, 'U0ADMIN', 'garden-00', foreign)).toContain(
      'This key belongs to another project, not to garden-00',
    );
    expect(await fleet.discordInteraction(1, discordConnect('garden-01', foreign))).toContain(
      'This key belongs to another project, not to garden-01',
    );
    const polled = () =>
      world.sim.requests.slice(from).filter((r) => /^\/project\/garden-0[01](\/|$)/.test(r.path)).length;
    expect(polled()).toBe(10); // the five probes of each refusal
    await sleep(5_000); // every replica's sync (5 s) came and went: still nobody polls them
    expect(polled()).toBe(10);

    const names: string[] = [];
    for (const [i, project] of projects.entries()) {
      const key = world.sim.issueProjectKey(project);
      const answer = fromSlack(i)
        ? await fleet.slackConnect(i, team, 'U0ADMIN', project, key)
        : await fleet.discordInteraction(i, discordConnect(project, key));
      expect(answer).toContain(`${project} is connected`);
      // The team subscribes its channel at once (on another replica); a supporter funds 200 ms after the answer.
      const subscribing = fromSlack(i)
        ? fleet.slackCommand(i + 1, team, 'U0ADMIN', `subscribe ${project} supporters`, 'C0TEAM')
        : fleet.discordInteraction(i + 1, discordCommand('subscribe', { project, kinds: 'supporters' }));
      await sleep(200);
      const name = `First Backer of ${project}`;
      world.sim.project(project).addSupporter({ displayName: name, amount: 30 });
      names.push(name);
      expect(await subscribing).toContain('now gets supporters notices');
    }
    const posted = () =>
      JSON.stringify(fleet.slack.calls.filter((c) => c.method === 'chat.postMessage')) +
      JSON.stringify(fleet.discord.channelMessages.get(discordChannel) ?? []);
    const announced = await waitUntil(
      'a notice of each of the 20 supporters who funded right after their connects',
      () => {
        const text = posted();
        const missing = names.filter((n) => !text.includes(n));
        return missing.length === 0 ? names.length : undefined;
      },
      { timeoutMs: 90_000 },
    ).catch(() => names.filter((n) => posted().includes(n)).length);
    expect(announced).toBe(20);
  }, 300_000);

  it('the App Home, /status and /healthz say the same on each of the 3 replicas', async () => {
    // Three readings, one per replica; a status that changed between them (a poll's note) is read again.
    const same = async (what: string, read: (replica: number) => Promise<string>) => {
      let readings: string[] = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        readings = [];
        for (const replica of [0, 1, 2]) readings.push(await read(replica));
        if (new Set(readings).size === 1) return readings[0] ?? '';
        await sleep(2_000);
      }
      expect(readings, what).toEqual([readings[0], readings[0], readings[0]]);
      return readings[0] ?? '';
    };
    const home = await same('the App Home', async (replica) => {
      const before = fleet.slack.calls.length;
      await fleet.slackEvent(replica, team, {
        type: 'app_home_opened',
        user: 'U0ADMIN',
        channel: 'D0HOME',
        tab: 'home',
      });
      const publish = await waitUntil('views.publish of the App Home', () =>
        fleet.slack.calls.slice(before).find((c) => c.method === 'views.publish'),
      );
      return publish.args.view ?? '';
    });
    for (const project of projects.filter((_, i) => fromSlack(i))) expect(home).toContain(project);
    expect(home).toContain('#C0TEAM supporters');
    expect(home).toContain('last poll within the last 15 minutes');
    expect(home).not.toContain('not polled yet');

    const slackStatus = await same('/fundbot status', (replica) =>
      fleet.slackCommand(replica, team, 'U0PLAIN', 'status', 'C0TEAM'),
    );
    expect(slackStatus).toContain('fundbot in this workspace');
    const discordStatus = await same("Discord's /status", (replica) =>
      fleet.discordInteraction(replica, fleet.signed.chatInput({ command: 'status' })),
    );
    expect(discordStatus).toContain('fundbot in this server');
    expect(discordStatus).toContain(`<#${discordChannel}> supporters`);
    expect(discordStatus).not.toContain('\\u200b');
    for (const project of projects.filter((_, i) => !fromSlack(i))) expect(discordStatus).toContain(project);

    const fleetHealth = await same('/healthz', async (replica) => {
      const body = (await (await fetch(`${fleet.replicas[replica]?.opsUrl}/healthz`)).json()) as {
        checks: Record<string, unknown>;
      };
      return JSON.stringify(
        Object.entries(body.checks).filter(([name]) => name.startsWith('status:') || name === 'cannot-post'),
      );
    });
    for (const project of projects) expect(fleetHealth).toContain(`status:${project}`);
    expect(fleetHealth).toContain('fundbot can post in every subscribed channel');
    expect(fleetHealth).not.toContain('not polled yet');
  }, 180_000);

  it('an uninstall leaves no key of the workspace or its projects in Redis', async () => {
    await fleet.slackEvent(2, team, { type: 'app_uninstalled' });
    const slackProjects = projects.filter((_, i) => fromSlack(i));
    // Connected projects' state goes once no replica can write it (a sync and a lease later); claims in 30 s.
    const left = await waitUntil(
      'no key naming the uninstalled workspace or its projects',
      async () => {
        const keys = (await allStoreKeys(redis.url)).filter(
          (k) =>
            k.includes(team.teamId) || slackProjects.some((p) => k.includes(`/${p}/`) || k.endsWith(`/${p}`)),
        );
        return keys.length === 0 ? keys : undefined;
      },
      { timeoutMs: 60_000 },
    ).catch(async () =>
      (await allStoreKeys(redis.url)).filter(
        (k) => k.includes(team.teamId) || slackProjects.some((p) => k.includes(p)),
      ),
    );
    expect(left).toEqual([]);
  }, 90_000);
});
