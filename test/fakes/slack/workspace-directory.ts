/**
 * The fake Slack workspace's users and conversations, as users.info and
 * conversations.info report them to the bot, and whether chat.postMessage takes the
 * bot's message there (a bot must be a member: `not_in_channel`). A channel never set
 * is public with the bot as a member.
 */

export interface FakeSlackUser {
  readonly id: string;
  readonly team_id: string;
  readonly name: string;
  readonly real_name?: string;
  readonly is_admin?: boolean;
  readonly is_owner?: boolean;
  readonly is_restricted?: boolean;
  readonly deleted?: boolean;
  readonly locale?: string;
  readonly profile?: { readonly display_name?: string; readonly real_name?: string };
}

/** A conversation as conversations.info reports it to the bot. */
export interface FakeSlackChannel {
  readonly id: string;
  /** Default true. */
  readonly isMember?: boolean;
  readonly isArchived?: boolean;
  /** A private channel the bot is not in is invisible to it: `channel_not_found`. */
  readonly isPrivate?: boolean;
  readonly isIm?: boolean;
}

export interface WorkspaceDirectory {
  setUser(user: FakeSlackUser): void;
  setChannel(channel: FakeSlackChannel): void;
  /** users.info's answer; the locale only with `include_locale`. */
  usersInfo(args: Record<string, unknown>): Record<string, unknown>;
  conversationsInfo(args: Record<string, unknown>): Record<string, unknown>;
  /**
   * conversations.open (scope im:write) with one user: the 1:1 DM's id, `D` and the user id, the same on every call
   * (Slack resumes the existing DM). A user set with `deleted` is `user_disabled`; several users are not faked.
   */
  openIm(args: Record<string, unknown>): Record<string, unknown>;
  /** Why Slack refuses a bot's post in the channel (`not_in_channel`, ...), or undefined when it takes it. */
  postRefusal(channelId: string): string | undefined;
  /**
   * Why Slack refuses the bot a channel's history (conversations.history, .replies): `not_in_channel` where it is
   * not a member, `channel_not_found` for a private channel it is not in. An archived channel stays readable.
   */
  readRefusal(channelId: string): string | undefined;
}

export function createWorkspaceDirectory(initialUsers: readonly FakeSlackUser[]): WorkspaceDirectory {
  const users = new Map<string, FakeSlackUser>(initialUsers.map((u) => [u.id, u]));
  const channels = new Map<string, FakeSlackChannel>();

  return {
    setUser: (user) => {
      users.set(user.id, user);
    },
    setChannel: (channel) => {
      channels.set(channel.id, channel);
    },
    usersInfo: (args) => {
      const user = users.get(String(args.user));
      if (!user) return { ok: false, error: 'user_not_found' };
      const { locale, ...rest } = user;
      return { ok: true, user: args.include_locale === 'true' && locale ? { ...rest, locale } : rest };
    },
    conversationsInfo: (args) => {
      const id = String(args.channel);
      const channel = channels.get(id) ?? { id };
      const isMember = channel.isMember ?? true;
      if (channel.isPrivate && !isMember) return { ok: false, error: 'channel_not_found' };
      return {
        ok: true,
        channel: {
          id,
          is_channel: !channel.isPrivate && !channel.isIm,
          is_group: channel.isPrivate ?? false,
          is_im: channel.isIm ?? false,
          is_private: channel.isPrivate ?? false,
          is_archived: channel.isArchived ?? false,
          ...(channel.isIm ? {} : { is_member: isMember }),
        },
      };
    },
    openIm: (args) => {
      const ids = String(args.users ?? '')
        .split(',')
        .filter((id) => id !== '');
      if (ids.length === 0) return { ok: false, error: 'users_list_not_supplied' };
      if (ids.length > 1) return { ok: false, error: 'method_not_supported_for_channel_type' };
      if (users.get(ids[0] as string)?.deleted) return { ok: false, error: 'user_disabled' };
      const id = `D${ids[0]}`;
      channels.set(id, { id, isIm: true });
      return { ok: true, channel: { id } };
    },
    postRefusal: (channelId) => {
      const channel = channels.get(channelId);
      if (!channel) return undefined;
      if (channel.isPrivate && channel.isMember === false) return 'channel_not_found';
      if (channel.isArchived) return 'is_archived';
      return channel.isMember === false && !channel.isIm ? 'not_in_channel' : undefined;
    },
    readRefusal: (channelId) => {
      const channel = channels.get(channelId);
      if (channel?.isMember !== false || channel.isIm) return undefined;
      return channel.isPrivate ? 'channel_not_found' : 'not_in_channel';
    },
  };
}
