import { describe, expect, test } from 'vitest';
import { projectUrl } from '../../src/core/project-url.js';
import { buildProject } from '../support/builders.js';

const url = (main: string, localized?: Record<string, string>) =>
  buildProject({ url: { main, ...(localized ? { localized_urls: localized } : {}) } });

describe('the project link in the reader language', () => {
  test('uses the localized page the platform serves, on the origin of url.main', () => {
    const project = url('https://crowdfunding.example/solar-kiosk', {
      de: '/de/solar-kiosk',
      en: '/en/solar-kiosk',
    });
    expect(projectUrl(project, 'de')).toBe('https://crowdfunding.example/de/solar-kiosk');
    expect(projectUrl(project, 'en')).toBe('https://crowdfunding.example/en/solar-kiosk');
  });

  test('falls back to url.main without a localized page', () => {
    expect(projectUrl(url('https://crowdfunding.example/solar-kiosk'), 'de')).toBe(
      'https://crowdfunding.example/solar-kiosk',
    );
  });

  test('a localized entry can never lead to another site or scheme', () => {
    for (const hostile of ['//evil.example/x', 'https://evil.example/x', 'javascript:alert(1)', 'de/x']) {
      expect(projectUrl(url('https://crowdfunding.example/p', { de: hostile }), 'de')).toBe(
        'https://crowdfunding.example/p',
      );
    }
  });

  test('no link at all when url.main is not http(s)', () => {
    expect(projectUrl(url('javascript:alert(1)', { de: '/de/p' }), 'de')).toBeUndefined();
  });
});
