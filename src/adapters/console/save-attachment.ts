import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NeutralMessage } from '../../core/index.js';

/**
 * Saves a message's attached image (the funding chart of /chart, /digest and the daily digest)
 * in `dir`, since a terminal cannot show a PNG; returns its path for the text to print, or
 * undefined when the message has no attachment or no folder was given. The name is the
 * attachment's own (`funding-solar-kiosk-2026-01-08.png`, made safe for any file system) with
 * the time of day added, so a second chart the same day does not overwrite the first.
 */
export async function saveAttachment(
  message: NeutralMessage,
  dir: string | undefined,
  now: number,
): Promise<string | undefined> {
  const image = message.image;
  if (dir === undefined || image?.kind !== 'attachment') return undefined;
  const safe = image.filename.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '') || 'image.png';
  const dot = safe.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
  const time = new Date(now).toISOString().slice(11, 23).replace(/[:.]/g, '');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${stem}-${time}${extension}`);
  await writeFile(path, image.data);
  return path;
}
