import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import type { NeutralMessage } from '../message.js';
import { visibleWatched } from '../resolve-project.js';
import type { CommandRun } from './command-run.js';
import { typedCommand } from './command-run.js';

/**
 * /connect (Slack `/fundbot connect`): without a key it asks the adapter to open the private form
 * (`form: 'connect-project'`); the form's submission comes back here with the `project` and `key` options,
 * and the key goes to the hosted port (checked, sealed, stored), never into an answer. Connecting a project
 * the workspace already has replaces its key (rotation).
 */
export async function connectCommand(run: CommandRun): Promise<NeutralMessage> {
  const { t } = run;
  const hosted = run.deps.hosted;
  if (!hosted) return { title: t.hosted.formTitle, text: t.hosted.off, tone: 'warning', private: true };
  const { project, key } = run.invocation.options;
  if (typeof key !== 'string' || key.trim() === '') {
    return {
      title: t.hosted.formTitle,
      text: t.hosted.formOpened,
      tone: 'info',
      private: true,
      form: 'connect-project',
    };
  }
  const linkCaption = typeof project === 'string' ? project.trim() : '';
  const outcome = await hosted.connect({
    workspace: run.invocation.context.channel,
    linkCaption,
    apiKey: key.trim(),
    by: run.invocation.context.user.displayName,
  });
  const shown = singleLine(outcome.linkCaption, limits.title);
  if (outcome.kind === 'refused') {
    return {
      title: t.hosted.formTitle,
      text: t.hosted.refused(
        outcome.reason,
        shown,
        outcome.limit ?? hosted.limit,
        t.hosted.place(run.invocation.context.channel.platform),
        outcome.missingScopes ? t.common.list(outcome.missingScopes) : undefined,
      ),
      tone: 'error',
      private: true,
    };
  }
  const off = outcome.featuresOff.length > 0 ? t.common.list(outcome.featuresOff) : undefined;
  return {
    title: t.hosted.formTitle,
    text:
      outcome.kind === 'rotated'
        ? t.hosted.rotated(shown, off)
        : t.hosted.connected(shown, off, typedCommand(run, 'subscribe')),
    tone: 'success',
    private: true,
  };
}

/**
 * /disconnect <project>: the workspace's own connected project only; its key is deleted, polling stops, and
 * the workspace's channels are unsubscribed from it (nothing would reach them any more).
 */
export async function disconnectCommand(run: CommandRun): Promise<NeutralMessage> {
  const { t } = run;
  const hosted = run.deps.hosted;
  if (!hosted) return { text: t.hosted.off, tone: 'warning', private: true };
  const given = run.invocation.options['project'];
  const project = typeof given === 'string' ? given.trim() : '';
  const shown = singleLine(project, limits.title);
  const { channel } = run.invocation.context;
  const done = project !== '' && (await hosted.disconnect(channel, project));
  if (done) {
    for (const sub of await run.deps.subscriptions.forProject(project)) {
      if (sub.channel.platform === channel.platform && sub.channel.workspaceId === channel.workspaceId) {
        await run.deps.subscriptions.unsubscribe(sub.channel, project);
      }
    }
  }
  return done
    ? { text: t.hosted.disconnected(shown), tone: 'success', private: true }
    : { text: t.hosted.notConnected(shown, t.hosted.place(channel.platform)), tone: 'error', private: true };
}

/** /projects: the workspace's connected projects (with what a missing scope turns off) and the operator's. */
export async function projectsCommand(run: CommandRun): Promise<NeutralMessage> {
  const { t } = run;
  const { channel } = run.invocation.context;
  const hosted = run.deps.hosted;
  const own = hosted ? await hosted.list(channel) : [];
  const operator = visibleWatched(run)
    .filter((w) => hosted?.ownerOf(w.linkCaption) === undefined)
    .map((w) =>
      singleLine(
        w.title && w.title !== w.linkCaption ? `${w.title} (${w.linkCaption})` : w.linkCaption,
        limits.title,
      ),
    );
  const ownLines = own.map((p) =>
    t.hosted.connectedLine(
      singleLine(p.linkCaption, limits.title),
      singleLine(p.connectedBy, limits.name),
      p.featuresOff.length > 0 ? t.common.list(p.featuresOff) : undefined,
    ),
  );
  return {
    title: t.hosted.listTitle,
    fields: [
      ...(hosted
        ? [
            {
              name: t.hosted.ownField(own.length, hosted.limit),
              value: ownLines.length > 0 ? '' : t.hosted.none(typedCommand(run, 'connect')),
              ...(ownLines.length > 0 ? { items: ownLines.slice(0, limits.fields) } : {}),
            },
          ]
        : []),
      ...(operator.length > 0
        ? [{ name: t.hosted.operatorField, value: '', items: operator.slice(0, 20) }]
        : []),
    ],
    tone: 'info',
  };
}
