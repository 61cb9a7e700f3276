/** The kinds a channel can subscribe to. */
export const noticeKinds = ['supporters', 'wall', 'blog', 'milestones', 'rewards', 'digest'] as const;
export type NoticeKind = (typeof noticeKinds)[number];

export function isNoticeKind(value: string): value is NoticeKind {
  return (noticeKinds as readonly string[]).includes(value);
}
