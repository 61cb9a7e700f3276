/**
 * The neutral message model. Commands and notices produce it; each adapter
 * renders it natively (Discord embeds, Slack Block Kit, terminal text).
 *
 * Every string in this model is PLAIN TEXT, possibly written by a stranger
 * (a display name, a wall post). Renderers must escape all of it for their
 * platform; no field carries markup. The only links are `links[].url` and
 * `image.url`, which commands build from trusted API URLs and renderers must
 * still check to be http(s).
 */
export interface NeutralMessage {
  readonly title?: string;
  /** Link target of the title, built from trusted data (project url.main). */
  readonly titleUrl?: string;
  readonly text?: string;
  readonly fields?: readonly MessageField[];
  readonly progress?: ProgressBar;
  readonly image?: MessageImage;
  readonly links?: readonly MessageLink[];
  readonly footer?: string;
  readonly tone?: 'neutral' | 'success' | 'info' | 'warning' | 'error';
  /** A badge shown next to the title, e.g. "supporters only" or "locked". */
  readonly badge?: string;
  /** The title is shown struck through: a notice taken back (a correction edit). */
  readonly struck?: boolean;
  /**
   * The group a notice mentions: a Discord role id or a Slack user group id, set by the delivery pipeline from
   * the channel's /ping setting (never from user text). Renderers check its form, add the mention beside the
   * notice and allow exactly that one; everything else stays inert.
   */
  readonly ping?: string;
  /** Only the invoking user sees it (errors, admin confirmations). */
  readonly private?: boolean;
  /**
   * A command answer's second message, sent right after it with its own
   * visibility: /subscribe's private confirmation is followed by the public
   * "now watching" summary. Adapters send it as a follow-up to the same command
   * (Slack respond(), a Discord interaction follow-up); notices never carry one.
   */
  readonly followUp?: NeutralMessage;
  /**
   * Asks the adapter to open a private form instead of (or before) showing the text: `connect-project`
   * is the form of /fundbot connect (Slack views.open, a Discord modal), whose submission comes back as
   * the `connect` command with `project` and `key` options. Adapters without forms show the text.
   */
  readonly form?: 'connect-project';
}

export interface MessageField {
  readonly name: string;
  /** Plain text; may be empty when `items` carry the field. */
  readonly value: string;
  /**
   * A list under the value, one entry each: every adapter draws it as its platform's
   * bulleted list (Slack rich_text_list, Discord `- ` lines, `•` on the console), so no
   * entry carries a bullet character of its own.
   */
  readonly items?: readonly string[];
  readonly inline?: boolean;
  /**
   * Channel ids the value names as `#<id>`, written by the core from stored subscriptions (never user text):
   * where the platform has channel mentions (Discord) they are shown as such; elsewhere `#<id>` stays.
   */
  readonly channels?: readonly string[];
  /** A button beside the field where the platform has them (the Slack App Home): disconnect this project. */
  readonly action?: { readonly kind: 'disconnect'; readonly project: string };
}

/**
 * Progress toward a goal. Adapters draw it once, as a bar with `label` beside it; the
 * core never repeats the bar in a field or the text, and never lets an adapter format the
 * percent itself (one rule, core/format.ts `formatPercent`). Build it with `progressToward`.
 */
export interface ProgressBar {
  readonly current: number;
  readonly goal: number;
  /** 0..∞ (a campaign can exceed 100%); the bar's filling. */
  readonly percent: number;
  /** The percent as the channel's language writes it: "64%", "64 %". */
  readonly label: string;
}

export type MessageImage =
  | { readonly kind: 'url'; readonly url: string; readonly alt: string }
  | {
      readonly kind: 'attachment';
      readonly filename: string;
      readonly data: Uint8Array;
      readonly alt: string;
    };

export interface MessageLink {
  readonly label: string;
  readonly url: string;
}
