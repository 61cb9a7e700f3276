import type { Project } from '../api/index.js';
import { safeHttpUrl } from '../domain/text.js';
import type { Locale } from './command-core.js';

/**
 * The project's page in the reader's language. The platform serves localized pages
 * (`url.localized_urls`, relative paths such as `/de/solar-kiosk`); they are resolved
 * against the origin of `url.main`, so a hostile entry cannot point elsewhere. Falls
 * back to `url.main`; undefined when neither is an http(s) URL.
 */
export function projectUrl(project: Pick<Project, 'url'>, locale: Locale): string | undefined {
  const main = safeHttpUrl(project.url.main);
  const localized = project.url.localized_urls?.[locale];
  if (main === undefined || !localized?.startsWith('/') || localized.startsWith('//')) return main;
  const resolved = new URL(localized, main);
  return resolved.origin === new URL(main).origin ? safeHttpUrl(resolved.toString()) : main;
}
