/**
 * Journey (issue 24, hosted fundbot): `npm start` (src/main.ts as a child process) in Slack OAuth mode with
 * hosted.enabled, against the fake Slack Web API and the platform simulator. A new workspace goes from install
 * to its first supporter notice without the operator: install → /fundbot connect (views.open) → the form's
 * submission → subscribe → notice → key rotation → disconnect → uninstall. Another workspace never sees the
 * connected project, and the key is never in clear in a log, a message or the store.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlackOAuth, startFakeSlackOAuth } from '../fakes/slack/fake-slack-oauth.js';
import { connectFormSubmission, postSignedCommand, postSignedEvent, slashCommand } from '../slack/helpers.js';
import { installWorkspace } from '../slack/oauth-browser.js';
import { allStoreKeys } from '../support/store-keys.js';
import { processStartMs, waitUntil } from '../support/wait-until.js';
import { type BotProcess, killAllBots, startBotProcess, tsxEntry } from './harness/bot-process.js';
import { journeyProject, journeyProjectSeed } from './harness/journey-project.js';
import { type JourneyWorld, startJourneyWorld } from './harness/journey-world.js';

const signingSecret = 'hosted-journey-signing-secret';
const teamProject = 'team-garden';
const host = { teamId: 'T0HOST', name: 'Garden Team', admins: ['U0ADMIN'] };
const other = { teamId: 'T0OTHER', name: 'Other Team', admins: ['U0OTHERADMIN'] };

let world: JourneyWorld;
let fake: FakeSlackOAuth;
let bot: BotProcess;
let base: string;
const keys: string[] = [];

beforeAll(async () => {
  world = await startJourneyWorld('hosted-slack');
  world.sim.createProject({
    ...journeyProjectSeed(Date.now()),
    linkCaption: teamProject,
    title: 'Team Garden',
  });
  world.sim.createProject({ ...journeyProjectSeed(Date.now()), linkCaption: 'other-garden', title: 'Other' });
  // The platform as measured in issue 30: another project's key gets the project page's public view.
  world.sim.otherKeyProjectPage = 'public-view';
  fake = await startFakeSlackOAuth();
  const port = await world.freePort();
  base = `http://127.0.0.1:${port}`;
  const config = world.writeConfig({
    api: { baseUrl: world.sim.url },
    store: { url: world.storeUrl },
    projects: [{ linkCaption: journeyProject, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }],
    slack: { enabled: true, mode: 'http', port, clientId: fake.clientId },
    hosted: { enabled: true, maxProjectsPerWorkspace: 2 },
    digest: { enabled: false },
    http: { enabled: true, port: await world.freePort() },
  });
  bot = startBotProcess({
    name: 'npm start (hosted, Slack OAuth)',
    entry: tsxEntry,
    cwd: world.dir,
    env: {
      FUNDBOT_CONFIG: config,
      SOLAR_KIOSK_API_KEY: world.apiKey,
      SLACK_CLIENT_SECRET: fake.clientSecret,
      SLACK_STATE_SECRET: 'hosted-journey-state-secret-0123456789abcdef',
      SLACK_SIGNING_SECRET: signingSecret,
      FUNDBOT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      SLACK_API_URL: fake.apiUrl,
    },
  });
  await bot.waitForLog(/fundbot is running/, 'fundbot to start', processStartMs);
}, 90_000);

afterAll(async () => {
  await bot?.stop('SIGTERM').catch(() => undefined);
  killAllBots();
  await fake?.close();
  await world?.close();
});

async function install(team: typeof host): Promise<void> {
  expect((await installWorkspace(base, fake, team)).status).toBe(200);
}

/** A slash command from a user of `team`; resolves with the text of the answer through response_url. */
async function command(
  team: typeof host,
  user: string,
  text: string,
  channel = 'C0TEAM',
  expectForm = false,
  withTrigger = true,
): Promise<string> {
  const responseUrl = fake.responseUrl();
  const fields = slashCommand({
    response_url: responseUrl,
    team_id: team.teamId,
    user_id: user,
    channel_id: channel,
    text,
    trigger_id: withTrigger ? `trigger-${Math.random()}` : '',
  });
  const sent = await postSignedCommand(`${base}/slack/events`, signingSecret, fields);
  expect(sent.status).toBe(200);
  if (expectForm) {
    await waitUntil(
      'views.open',
      () => fake.calls.some((c) => c.method === 'views.open' && c.args.trigger_id === fields.trigger_id),
      { timeoutMs: 10_000 },
    );
    return '';
  }
  const answer = await waitUntil(
    `the answer to /fundbot ${text}`,
    () => fake.responses.find((r) => responseUrl.endsWith(r.id)),
    { timeoutMs: 15_000 },
  );
  return JSON.stringify(answer.body);
}

/** A signed Events API callback of `team` (app_home_opened, app_uninstalled). */
const postEvent = (team: typeof host, event: Record<string, unknown>, id: string) =>
  postSignedEvent(`${base}/slack/events`, signingSecret, team.teamId, event, id);

/** Submits the connect form Slack showed, as Slack posts a view_submission; resolves with the private answer. */
async function submitConnectForm(
  team: typeof host,
  user: string,
  project: string,
  key: string,
): Promise<string> {
  const opened = [...fake.calls]
    .reverse()
    .find((c) => c.method === 'views.open' && c.token === fake.tokenOf(team.teamId));
  const view = JSON.parse(opened?.args.view ?? '{}') as { callback_id: string; private_metadata: string };
  const before = fake.calls.length;
  const form = connectFormSubmission({
    teamId: team.teamId,
    userId: user,
    project,
    key,
    channel: '',
    callbackId: view.callback_id,
    privateMetadata: view.private_metadata,
  });
  const sent = await postSignedCommand(`${base}/slack/events`, signingSecret, form);
  expect(sent.status).toBe(200);
  const answer = await waitUntil(
    'the private answer to the connect form',
    () =>
      fake.calls
        .slice(before)
        .find(
          (c) =>
            c.method === 'chat.postEphemeral' || (c.method === 'chat.postMessage' && c.args.channel === user),
        ),
    { timeoutMs: 20_000 },
  );
  return `${answer.args.text ?? ''} ${answer.args.blocks ?? ''}`;
}

/** Adds supporters to the team's project until one of them is announced in `channel`. */
async function supporterNotice(channel: string, token: string | undefined): Promise<string> {
  const names: string[] = [];
  let addedAt = 0;
  return waitUntil(
    `a supporter notice of ${teamProject} in ${channel}`,
    () => {
      if (Date.now() - addedAt > 1_500) {
        addedAt = Date.now();
        const name = `Garden Backer ${Math.random().toString(36).slice(2, 7)}`;
        names.push(name);
        world.sim.project(teamProject).addSupporter({ displayName: name, amount: 25 });
      }
      const posted = fake.calls.find(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.channel === channel &&
          c.token === token &&
          names.some((n) => JSON.stringify(c.args).includes(n)),
      );
      return posted ? JSON.stringify(posted.args) : undefined;
    },
    { timeoutMs: 45_000 },
  );
}

describe('journey: hosted fundbot on Slack, from install to uninstall without the operator', () => {
  it('install → connect → subscribe → notice → rotation → disconnect → uninstall', async () => {
    await install(host);
    await install(other);

    // Connect: the command opens the private form; the key goes only into the form's submission.
    expect(await command(host, 'U0PLAIN', 'connect')).toMatch(/admin/i);
    expect(fake.calls.some((c) => c.method === 'views.open' && c.token === fake.tokenOf(host.teamId))).toBe(
      false,
    );
    await command(host, 'U0ADMIN', 'connect', 'C0TEAM', true);
    // Another project's key: refused with its reason before anything is stored, and the project never polled.
    const probesFrom = world.sim.requests.length;
    expect(
      await submitConnectForm(host, 'U0ADMIN', teamProject, world.sim.issueProjectKey('other-garden')),
    ).toContain(`This key belongs to another project, not to ${teamProject}`);
    const teamRequests = () =>
      world.sim.requests.slice(probesFrom).filter((r) => r.path.startsWith(`/project/${teamProject}`));
    expect(teamRequests()).toHaveLength(5);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(teamRequests()).toHaveLength(5);
    // A form Slack did not open (no trigger id: views.open refuses) is not "the form fundbot opened".
    expect(await command(host, 'U0ADMIN', 'connect', 'C0TEAM', false, false)).toContain(
      'The connect form did not open',
    );

    await command(host, 'U0ADMIN', 'connect', 'C0TEAM', true);
    const firstKey = world.sim.issueProjectKey(teamProject);
    keys.push(firstKey);
    expect(await submitConnectForm(host, 'U0ADMIN', teamProject, firstKey)).toContain(
      `${teamProject} is connected`,
    );

    // Subscribe and the first notice, posted with the workspace's own token.
    const subscribed = await command(host, 'U0ADMIN', `subscribe ${teamProject} supporters`);
    // The title once the engine read the project, else the link caption.
    expect(subscribed).toMatch(/now gets supporters notices of (team-garden|Team Garden)/);
    const notice = await supporterNotice('C0TEAM', fake.tokenOf(host.teamId));
    expect(notice).toContain('Garden Backer');

    // Where the team looks: the App Home lists the project, its funding, the channel and its health.
    const homeEvent = (user: string) => ({ type: 'app_home_opened', user, channel: 'D0HOME', tab: 'home' });
    expect((await postEvent(host, homeEvent('U0ADMIN'), 'Ev0HOME1')).status).toBe(200);
    const home = await waitUntil('the App Home of the host workspace', () =>
      fake.calls.find((c) => c.method === 'views.publish' && c.token === fake.tokenOf(host.teamId)),
    );
    expect(home.args.user_id).toBe('U0ADMIN');
    expect(home.args.view).toContain('Team Garden (team-garden)');
    expect(home.args.view).toMatch(/of €10,000/);
    expect(home.args.view).toContain('#C0TEAM supporters');
    expect(home.args.view).toContain('last poll');
    expect(home.args.view).toContain('fundbot_home_disconnect');
    // Below: the delivery trace's section, the channel's last notices (the one just posted, by its public name).
    expect(home.args.view).toContain('Last notices by channel');
    let opened = 0;
    await waitUntil('the posted notice in the App Home trace', async () => {
      opened += 1;
      await postEvent(host, homeEvent('U0ADMIN'), `Ev0HOMETRACE${opened}`);
      const views = fake.calls.filter(
        (c) => c.method === 'views.publish' && c.token === fake.tokenOf(host.teamId),
      );
      return views.at(-1)?.args.view?.includes('Garden Backer');
    });
    expect((await postEvent(other, homeEvent('U0OTHERADMIN'), 'Ev0HOME2')).status).toBe(200);
    const otherHome = await waitUntil('the App Home of the other workspace', () =>
      fake.calls.find((c) => c.method === 'views.publish' && c.token === fake.tokenOf(other.teamId)),
    );
    expect(otherHome.args.view).not.toContain('team-garden');

    // Isolation: the other workspace neither sees nor subscribes the connected project.
    expect(await command(other, 'U0OTHERADMIN', 'projects', 'C0OTHER')).not.toContain(teamProject);
    expect(await command(other, 'U0OTHERADMIN', `subscribe ${teamProject}`, 'C0OTHER')).toMatch(
      /not watched|unknown|does not watch/i,
    );
    expect(await command(host, 'U0PLAIN', 'projects')).toContain(teamProject);

    // Rotation: a new key through the same form; the old one is revoked and notices go on.
    await command(host, 'U0ADMIN', 'connect', 'C0TEAM', true);
    const secondKey = world.sim.issueProjectKey(teamProject);
    keys.push(secondKey);
    expect(await submitConnectForm(host, 'U0ADMIN', teamProject, secondKey)).toContain('was replaced');
    world.sim.revokeKey(firstKey);
    expect(await supporterNotice('C0TEAM', fake.tokenOf(host.teamId))).toContain('Garden Backer');

    // Disconnect, then uninstall.
    expect(await command(host, 'U0ADMIN', `disconnect ${teamProject}`)).toContain('is disconnected');
    expect(await command(host, 'U0PLAIN', 'projects')).not.toContain(`${teamProject} (by`);
    // The workspace's channel no longer lists the project it cannot get notices of any more.
    expect(await command(host, 'U0PLAIN', 'subscriptions')).not.toMatch(/team-garden|Team Garden/);
    expect((await postEvent(host, { type: 'app_uninstalled' }, 'Ev0HOSTGONE')).status).toBe(200);
    await bot.waitForLog(/Slack workspace removed/, 'the uninstall', 15_000);
    expect(await command(host, 'U0ADMIN', 'funding')).toContain('fundbot is not installed in this workspace');

    // Nothing of the workspace is left: no key of the whole store names it or its connected project (issue 30).
    const left = (await allStoreKeys(world.storeUrl)).filter(
      (k) => k.includes(host.teamId) || k.includes(teamProject),
    );
    expect(left).toEqual([]);

    // The key never in clear: not in fundbot's output, not in any message it sent, not in the store's files.
    const sent =
      JSON.stringify(fake.calls.filter((c) => c.method !== 'views.open')) + JSON.stringify(fake.responses);
    const stored = readdirSync(join(world.dir, 'data'))
      .map((f) => readFileSync(join(world.dir, 'data', f)).toString('latin1'))
      .join('');
    for (const key of keys) {
      expect(bot.output()).not.toContain(key);
      expect(sent).not.toContain(key);
      expect(stored).not.toContain(key);
      expect(stored).not.toContain(key.slice(9, 30));
    }
  }, 240_000);
});
