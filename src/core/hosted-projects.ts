import type { ChannelRef } from './ports.js';

/** A Slack workspace or a Discord server. */
export type WorkspaceRef = Pick<ChannelRef, 'platform' | 'workspaceId'>;

/** One project a workspace connected from chat, as its admins see it (never its key). */
export interface HostedProjectInfo {
  readonly linkCaption: string;
  readonly connectedBy: string;
  readonly connectedAt: number;
  /** Feeds the key cannot read (a missing scope turns them off). */
  readonly featuresOff: readonly string[];
}

/** Why a connect was refused: each has one sentence in the catalog (`hosted.refused`). */
export type ConnectRefusal =
  | 'bad-caption'
  | 'bad-key-format'
  /** A User API key (`svc_user_…`) where the project's own Project API key belongs. */
  | 'user-key'
  | 'limit'
  | 'operator-project'
  | 'other-workspace'
  | 'not-readable'
  | 'key-rejected'
  /** The key answers `key_project_mismatch`: it is another project's. */
  | 'key-other-project'
  /** The key lacks a scope fundbot cannot work without (fundings:read): `missingScopes` names every one it lacks. */
  | 'scope-missing'
  | 'unverified'
  /** The key passed, but the first read of the project (where "from now on" starts) did not succeed. */
  | 'baseline-failed';

export type ConnectOutcome =
  | {
      readonly kind: 'connected' | 'rotated';
      readonly linkCaption: string;
      /** The notice kinds the key's missing (optional) scopes turn off. */
      readonly featuresOff: readonly string[];
    }
  | {
      readonly kind: 'refused';
      readonly linkCaption: string;
      readonly reason: ConnectRefusal;
      readonly limit?: number;
      /** For `scope-missing`: every scope the key lacks. */
      readonly missingScopes?: readonly string[];
    };

/**
 * Projects connected from chat (issue 24), the port the core commands use; src/app/hosted implements it
 * (key check, sealing, the engine, the store). A workspace sees and subscribes only its own connected
 * projects plus the operator's configured ones: {@link HostedProjects.ownerOf} is the one rule.
 */
export interface HostedProjects {
  /** Connected projects per workspace at most. */
  readonly limit: number;
  /** The workspace that connected a project; undefined for the operator's (visible to every workspace). */
  ownerOf(linkCaption: string): WorkspaceRef | undefined;
  list(workspace: WorkspaceRef): Promise<readonly HostedProjectInfo[]>;
  /**
   * Tries the key on every feed, reads the project's baseline (so "from now on" holds from the answer on),
   * seals and stores the key; nothing is stored when it refuses.
   */
  connect(input: {
    readonly workspace: WorkspaceRef;
    readonly linkCaption: string;
    readonly apiKey: string;
    readonly by: string;
  }): Promise<ConnectOutcome>;
  /** False when the workspace has no such project. */
  disconnect(workspace: WorkspaceRef, linkCaption: string): Promise<boolean>;
  /**
   * Re-reads the connected projects now (one store read): a project connected on another replica a moment
   * ago is known here before the next periodic sync. Called when a command names a project not known yet.
   */
  refresh(): Promise<void>;
}

/** Whether `workspace` may see a project: the operator's are everyone's, a connected one only its owner's. */
export function projectVisibleTo(
  hosted: Pick<HostedProjects, 'ownerOf'> | undefined,
  workspace: WorkspaceRef,
  linkCaption: string,
): boolean {
  const owner = hosted?.ownerOf(linkCaption);
  return (
    owner === undefined ||
    (owner.platform === workspace.platform && owner.workspaceId === workspace.workspaceId)
  );
}
