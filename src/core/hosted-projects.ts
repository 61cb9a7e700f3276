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
  | 'limit'
  | 'operator-project'
  | 'other-workspace'
  | 'not-readable'
  | 'key-rejected'
  | 'unverified';

export type ConnectOutcome =
  | {
      readonly kind: 'connected' | 'rotated';
      readonly linkCaption: string;
      /** What each missing scope turns off (feed names), as the start-up key check says it. */
      readonly featuresOff: readonly string[];
    }
  | {
      readonly kind: 'refused';
      readonly linkCaption: string;
      readonly reason: ConnectRefusal;
      readonly limit?: number;
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
  /** Checks the key like the start-up check, seals and stores it, and has the engine watch the project. */
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
