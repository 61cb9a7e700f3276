/**
 * The hosted section's connects (issue 30), workspace after workspace as a team does it: install fundbot, set
 * the channel's supporters notices live, paste another project's key first (every tenth workspace: it must be
 * refused), then its own; the moment "watches it from now on" arrives the team subscribes its channel and a
 * supporter funds 200 ms later. That supporter must be announced (`firstSupporterMissed`); a wrong key must
 * never be accepted (`wrongKeyAccepted`) nor its project polled after the refusal.
 */
import type { Simulator } from '../../src/simulator/index.js';
import type { FakeSlackOAuth, FakeWorkspace } from '../../test/fakes/slack/fake-slack-oauth.js';
import { connectFormSubmission, postSignedCommand, slashCommand } from '../../test/slack/helpers.js';
import type { ArrivedSupporter } from './ground-truth.js';

export type BenchWorkspace = FakeWorkspace & { project: string; channel: string; admin: string };

export interface ConnectFigures {
  /** The supporter right after each connect's answer, to be found among the posted notices. */
  readonly firstSupporters: (ArrivedSupporter & { workspace: number })[];
  /** Another project's key answered "connected". */
  readonly wrongKeyAccepted: number;
  /** Requests to a wrongly keyed project between its refusal and its real connect, beyond the 5 probes. */
  readonly wrongKeyPolls: number;
  /** From the submission to the private answer, per connect (ms), sorted. */
  readonly answerMs: readonly number[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Connects every workspace's project in turn, each step to the next replica (`events(n)`, round robin). */
export async function connectWorkspaces(input: {
  readonly workspaces: readonly BenchWorkspace[];
  readonly sim: Simulator;
  readonly slack: FakeSlackOAuth;
  readonly signingSecret: string;
  /** The Slack events URL of replica n (modulo the fleet). */
  readonly events: (n: number) => string;
  /** The install flow on replica n (its state cookie stays on it). */
  readonly install: (workspace: BenchWorkspace, n: number) => Promise<void>;
  readonly wrongKeyEvery: number;
}): Promise<ConnectFigures> {
  const { sim, slack, workspaces } = input;
  const firstSupporters: (ArrivedSupporter & { workspace: number })[] = [];
  const answerMs: number[] = [];
  let wrongKeyAccepted = 0;
  let wrongKeyPolls = 0;

  const command = async (n: number, w: BenchWorkspace, text: string) => {
    const fields = slashCommand({
      response_url: slack.responseUrl(),
      text,
      user_id: w.admin,
      channel_id: w.channel,
      team_id: w.teamId,
    });
    const sent = await postSignedCommand(input.events(n), input.signingSecret, fields);
    if (!sent.ok) throw new Error(`${text} in ${w.teamId}: HTTP ${sent.status}`);
    const url = fields.response_url ?? '';
    while (!slack.responses.some((r) => url.endsWith(r.id))) await sleep(20);
  };
  const connect = async (n: number, w: BenchWorkspace, key: string): Promise<string> => {
    const before = slack.calls.length;
    const form = connectFormSubmission({
      teamId: w.teamId,
      userId: w.admin,
      project: w.project,
      key,
      channel: w.channel,
    });
    const sent = await postSignedCommand(input.events(n), input.signingSecret, form);
    if (!sent.ok) throw new Error(`connect ${w.project}: HTTP ${sent.status}`);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const answer = slack.calls
        .slice(before)
        .find((c) => c.method === 'chat.postEphemeral' && c.args.user === w.admin);
      if (answer) return answer.args.text ?? '';
      if (Date.now() > deadline) throw new Error(`no answer to connecting ${w.project}`);
      await sleep(10);
    }
  };

  for (const [i, w] of workspaces.entries()) {
    await input.install(w, i);
    await command(i + 1, w, 'pacing supporters live');
    if (i % input.wrongKeyEvery === 0) {
      const other = workspaces[(i + 1) % workspaces.length]!.project;
      const refusedAt = sim.requests.length;
      const answer = await connect(i, w, sim.issueProjectKey(other));
      if (answer.includes('is connected')) wrongKeyAccepted += 1;
      // A few fundings intervals for anything that would poll it; the real connect's requests are not counted.
      await sleep(3_000);
      const polls = sim.requests.slice(refusedAt).filter((r) => r.path.startsWith(`/project/${w.project}`));
      wrongKeyPolls += Math.max(0, polls.length - 5);
    }
    const submittedAt = Date.now();
    const answer = await connect(i + 1, w, sim.issueProjectKey(w.project));
    if (!answer.includes('is connected')) throw new Error(`${w.project} was not connected: ${answer}`);
    answerMs.push(Date.now() - submittedAt);
    // The team subscribes its channel at once; a supporter funds 200 ms after the answer.
    const subscribing = command(i + 2, w, `subscribe ${w.project} supporters`);
    await sleep(200);
    const key = sim.project(w.project).addSupporter({});
    firstSupporters.push({
      workspace: i,
      project: w.project,
      entryKey: `funding:${key.supportTimestamp}:${key.userId}`,
      supportTimestamp: key.supportTimestamp,
    });
    await subscribing;
  }
  return { firstSupporters, wrongKeyAccepted, wrongKeyPolls, answerMs: answerMs.sort((a, b) => a - b) };
}
