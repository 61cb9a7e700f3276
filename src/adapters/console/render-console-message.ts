import type { NeutralMessage } from '../../core/index.js';
import { progressBar } from '../../core/index.js';
import { safeHttpUrl } from '../../domain/text.js';

/**
 * Terminal escape sequences (CSI, OSC, single-character escapes) and every other
 * control character except the line break. User text reaching a terminal could
 * otherwise recolour it, move the cursor, rewrite the window title or hide text.
 */
const escapeSequences = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
const controlCharacters = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Makes untrusted text safe for a terminal: no escape sequences, no control or bidi characters. */
export function terminalSafe(text: string): string {
  return text.replace(escapeSequences, '').replace(controlCharacters, '');
}

const toneMarks: Readonly<Record<NonNullable<NeutralMessage['tone']>, string>> = {
  neutral: '',
  info: '',
  success: '✔ ',
  warning: '⚠ ',
  error: '✖ ',
};

/** A title that already starts with its own icon (🎉, 💬, 📝 ...) gets no second one. */
const startsWithIcon = /^\p{Extended_Pictographic}/u;

export interface ConsoleRenderOptions {
  /** Where an attached image (the digest chart) was saved, to print instead of the image. */
  readonly imagePath?: string;
}

/**
 * Renders a neutral message as readable terminal text: title (with badge and
 * link), text, progress bar, fields, links and footer. Every string is passed
 * through {@link terminalSafe}; links are shown only when they are http(s).
 */
export function renderConsoleMessage(message: NeutralMessage, options: ConsoleRenderOptions = {}): string {
  const lines: string[] = [];
  const safe = (s: string) => terminalSafe(s);
  const mark = startsWithIcon.test(message.title ?? '') ? '' : toneMarks[message.tone ?? 'neutral'];
  const privacy = message.private ? '(only you) ' : '';
  if (message.title !== undefined || message.badge !== undefined) {
    const badge = message.badge ? ` [${safe(message.badge)}]` : '';
    lines.push(`${privacy}${mark}${safe(message.title ?? '')}${badge}`.trimEnd());
    const titleUrl = safeHttpUrl(message.titleUrl);
    if (titleUrl) lines.push(`  ${safe(titleUrl)}`);
  } else if (privacy || mark) {
    lines.push(`${privacy}${mark}`.trimEnd());
  }
  if (message.text) lines.push(safe(message.text));
  // The bar once, with the core's label (the core formats every percent).
  if (message.progress)
    lines.push(`${progressBar(message.progress.percent, 20)} ${safe(message.progress.label)}`);
  for (const field of message.fields ?? []) {
    const value = field.value ? safe(field.value).split('\n') : [];
    const items = (field.items ?? []).map((item) => `  • ${safe(item)}`);
    if (value.length === 1 && items.length === 0) lines.push(`${safe(field.name)}: ${value[0]}`);
    else lines.push(`${safe(field.name)}:`, ...value.map((v) => `  ${v}`), ...items);
  }
  for (const link of message.links ?? []) {
    const url = safeHttpUrl(link.url);
    if (url) lines.push(`→ ${safe(link.label)}: ${safe(url)}`);
  }
  if (message.image) {
    const url = message.image.kind === 'url' ? safeHttpUrl(message.image.url) : undefined;
    const where = options.imagePath ?? url;
    lines.push(`🖼 ${safe(message.image.alt)}${where ? `: ${safe(where)}` : ''}`);
  }
  if (message.footer) lines.push(`— ${safe(message.footer)}`);
  return lines.join('\n');
}
