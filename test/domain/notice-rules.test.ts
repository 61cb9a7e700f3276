import { describe, expect, it } from 'vitest';
import {
  keywordsOf,
  maxKeywords,
  milestoneLevelsOf,
  type NoticeRules,
  parsePingTarget,
  passesFilters,
  pingFor,
} from '../../src/domain/notice-rules.js';
import { buildEvent } from '../support/event-builders.js';

const milestone = (percent: number) => ({
  ...buildEvent.supporter(),
  type: 'milestone' as const,
  percent,
  goalReached: false,
  funding: 1,
  goal: 2,
  currency: 'EUR',
});

describe('pings: only the group an admin named, by id', () => {
  it('Discord: a role mention or a role id; never @everyone, @here, a user or a channel', () => {
    expect(parsePingTarget('discord', '<@&123456789012345678>')).toBe('123456789012345678');
    expect(parsePingTarget('discord', ' 123456789012345678 ')).toBe('123456789012345678');
    for (const bad of [
      '@everyone',
      '@here',
      '<@123456789012345678>',
      '<#123456789012345678>',
      'Mods',
      '<@&1>',
    ])
      expect(parsePingTarget('discord', bad)).toBeUndefined();
  });

  it('Slack: <!subteam^ID>, <!subteam^ID|@name> or the bare id; never <!channel>, <!here> or a user', () => {
    expect(parsePingTarget('slack', '<!subteam^S0123ABCD|@backers>')).toBe('S0123ABCD');
    expect(parsePingTarget('slack', '<!subteam^S0123ABCD>')).toBe('S0123ABCD');
    expect(parsePingTarget('slack', 'S0123ABCD')).toBe('S0123ABCD');
    for (const bad of [
      '<!channel>',
      '<!here>',
      '<@U0123ABCD>',
      '@backers',
      's0123abcd',
      '<!subteam^U0123ABCD>',
    ])
      expect(parsePingTarget('slack', bad)).toBeUndefined();
    expect(parsePingTarget('console', 'S0123ABCD')).toBeUndefined();
  });

  it('pings on the chosen kinds only, never on the "now watching" summary', () => {
    const rules: NoticeRules = { ping: { target: 'S0123ABCD', kinds: ['milestones'] } };
    expect(pingFor(milestone(50), 'milestones', rules)).toBe('S0123ABCD');
    expect(pingFor(buildEvent.supporter(), 'supporters', rules)).toBeUndefined();
    expect(pingFor(buildEvent.watching(), 'milestones', rules)).toBeUndefined();
    expect(pingFor(milestone(50), 'milestones', undefined)).toBeUndefined();
  });
});

describe('filters', () => {
  it('wall posts: deny wins, allow keeps only posts naming one of its words (case and width folded)', () => {
    const rules: NoticeRules = { wall: { allow: keywordsOf('kiosk, solar'), deny: keywordsOf('spam') } };
    expect(passesFilters(buildEvent.wallPost({ message: 'Love the SOLAR idea' }), rules)).toBe(true);
    expect(passesFilters(buildEvent.wallPost({ message: 'ｋｉｏｓｋ!' }), rules)).toBe(true);
    expect(passesFilters(buildEvent.wallPost({ message: 'solar spam here' }), rules)).toBe(false);
    expect(passesFilters(buildEvent.wallPost({ message: 'good luck' }), rules)).toBe(false);
    // A burst carries no text: it passes; other kinds are not the wall filter's business.
    expect(passesFilters(buildEvent.wallPostBurst(), rules)).toBe(true);
    expect(passesFilters(buildEvent.supporter({ displayName: 'spam' }), rules)).toBe(true);
  });

  it('milestones by level; other notices of the kind pass', () => {
    const rules: NoticeRules = { milestoneLevels: milestoneLevelsOf('50 100')! };
    expect(passesFilters(milestone(50), rules)).toBe(true);
    expect(passesFilters(milestone(25), rules)).toBe(false);
    expect(passesFilters(buildEvent.projectStatus(), rules)).toBe(true);
  });

  it('keywords and levels as typed: bounded, folded, each once; nonsense refused', () => {
    expect(keywordsOf('Spam, SPAM  scam')).toEqual(['spam', 'scam']);
    expect(keywordsOf(Array.from({ length: 50 }, (_, i) => `w${i}`).join(' '))).toHaveLength(maxKeywords);
    expect(milestoneLevelsOf('100%, 50 50')).toEqual([50, 100]);
    expect(milestoneLevelsOf('fifty')).toBeUndefined();
    expect(milestoneLevelsOf('')).toBeUndefined();
    expect(milestoneLevelsOf('0')).toBeUndefined();
  });
});
