/**
 * The campaign every chat journey watches: `solar-kiosk` in EUR, goal €10,000, with 15 past supporters of €250
 * each, so that the README's first example can be checked word for word: the 16th supporter, Małgosia Öztürk
 * with €162, makes "Supporter count now 16 · Total €3,912".
 */
import type { ProjectSeed } from '../../../src/simulator/index.js';

export const journeyProject = 'solar-kiosk';
export const journeyTitle = 'Solar Kiosk for Every Neighbourhood';

/** The README's example supporter and what she brings the campaign to. */
export const readmeSupporter = { displayName: 'Małgosia Öztürk', amount: 162 } as const;
export const readmeFigures = 'Supporter count now 16 · Total €3,912';

export const journeyRewards = {
  postcard: 201,
  /** One left: the supporter who takes it sells it out. */
  lastKit: 202,
  /** Unlocks when the funding reaches €5,000. */
  workshop: 203,
} as const;

const hour = 3_600_000;

/** Seeded before the bot starts: the first run takes all of it as its baseline and announces none of it. */
export const seededNames = Array.from({ length: 15 }, (_, i) => `Seeded Backer ${i + 1}`);
export const seededWallMessage = 'Seeded wall post: good luck from the neighbourhood';

export function journeyProjectSeed(now: number): ProjectSeed {
  return {
    linkCaption: journeyProject,
    title: journeyTitle,
    teaserText: 'A kiosk that runs on sunshine.',
    status: 'active',
    currency: 'EUR',
    fundingThreshold: 10_000,
    allOrNothing: true,
    plan: 'pro',
    activationAt: now - 3 * 24 * hour,
    endAt: now + 20 * 24 * hour,
    rewards: [
      { id: journeyRewards.postcard, title: 'Thank-you postcard', price: 15 },
      { id: journeyRewards.lastKit, title: 'Early-bird kiosk kit', price: 120, quantityTotal: 1 },
      { id: journeyRewards.workshop, title: 'Community workshop day', price: 90, unlockThreshold: 5_000 },
    ],
    supporters: seededNames.map((displayName, i) => ({
      displayName,
      amount: 250,
      at: now - (40 - i) * hour,
    })),
    wallPosts: [{ authorName: 'Seeded Neighbour', message: seededWallMessage, at: now - 5 * hour }],
    blogPosts: [
      {
        title: 'We are live',
        text: '<p>Today our campaign starts.</p>',
        type: 'text',
        supporterOnly: false,
        at: now - 60 * hour,
      },
    ],
  };
}
