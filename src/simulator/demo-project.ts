import type { ProjectSeed } from './types.js';

/** Link caption of the demo project. */
export const demoLinkCaption = 'solar-kiosk';
/** User ids of the demo project's team (owner, manager, member): use them for User keys. */
export const demoTeam = { ownerId: 42, managerId: 43, memberId: 44 } as const;
/** Reward ids of the demo project, by role. */
export const demoRewards = {
  postcard: 101,
  shirt: 102,
  earlyBird: 103,
  charger: 104,
  workshop: 105,
  secret: 106,
  sponsor: 107,
} as const;

const hour = 3_600_000;
const day = 24 * hour;

/**
 * The lively demo project: EUR, all-or-nothing, goal 25,000. Rewards cover every
 * visibility case: unlimited, a limited one nearly sold out, one hidden until the
 * goal, one locked behind a threshold, one manually hidden, and one with three
 * variation groups (two fixed, one free text). Past supporters, wall posts and
 * blog posts (text and story, some supporter-only) are placed before `now`.
 */
export function demoProjectSeed(now: number): ProjectSeed {
  const { postcard, shirt, earlyBird, charger, workshop, secret, sponsor } = demoRewards;
  const past = (ms: number) => now - ms;
  return {
    linkCaption: demoLinkCaption,
    id: 4711,
    title: 'Solar Kiosk for Every Neighbourhood',
    subtitle: 'A solar-powered corner kiosk that charges phones, bikes and community spirit',
    teaserText: 'We build a kiosk that runs on sunshine – and you can help.',
    status: 'active',
    currency: 'EUR',
    fundingThreshold: 25_000,
    allOrNothing: true,
    plan: 'pro',
    likeCount: 318,
    ownerId: demoTeam.ownerId,
    users: [
      {
        id: demoTeam.ownerId,
        firstName: 'Clara',
        lastName: 'Sonnberg',
        displayName: 'Clara Sonnberg',
        city: 'Leipzig',
      },
      {
        id: demoTeam.managerId,
        firstName: 'Ole',
        lastName: 'Brandt',
        displayName: 'Ole Brandt',
        city: 'Leipzig',
      },
      {
        id: demoTeam.memberId,
        firstName: 'Fatima',
        lastName: 'Haddad',
        displayName: 'Fatima H.',
        city: 'Halle',
      },
    ],
    team: [
      { userId: demoTeam.managerId, role: 'manager' },
      { userId: demoTeam.memberId, role: 'member' },
    ],
    activationAt: past(5 * day),
    endAt: now + 25 * day,
    rewards: [
      {
        id: postcard,
        title: 'Thank-you postcard',
        description: '<p>A <b>hand-printed</b> postcard.</p>',
        price: 15,
      },
      {
        id: shirt,
        title: 'Kiosk T-shirt',
        description: '<p>Organic cotton, printed in Leipzig.</p>',
        price: 35,
        quantityTotal: 300,
        addressRequired: true,
        favorite: true,
        variants: [
          { label: 'Size', choices: ['S', 'M', 'L', 'XL'] },
          { label: 'Colour', choices: ['Anthracite', 'Sun yellow', 'Forest green'] },
          { label: 'Name on the back' },
        ],
      },
      {
        id: earlyBird,
        title: 'Early-bird kiosk kit',
        description: '<p>Mini solar panel, USB hub &amp; sticker set.</p><script>alert(1)</script>',
        price: 120,
        quantityTotal: 25,
        addressRequired: true,
        isInStock: true,
      },
      {
        id: charger,
        title: 'Solar phone charger',
        price: 49,
        quantityTotal: 200,
        addressRequired: true,
        galleryImages: 3,
      },
      {
        id: workshop,
        title: 'Community workshop day',
        description: '<p>Build your own panel with us. Unlocks at 15,000 €.</p>',
        price: 90,
        quantityTotal: 40,
        unlockThreshold: 15_000,
      },
      {
        id: secret,
        title: 'Stretch reward: your name on the solar bench',
        price: 250,
        quantityTotal: 50,
        hiddenUntilGoalReached: true,
      },
      { id: sponsor, title: 'Sponsor package (paused)', price: 1000, quantityTotal: 5, status: 'hidden' },
    ],
    supporters: [
      { displayName: 'Clara’s Mum', amount: 500, rewardIds: [postcard], at: past(5 * day - hour) },
      { displayName: 'Jürgen Weiß', rewardIds: [earlyBird], at: past(5 * day - 2 * hour) },
      { displayName: 'Zoë 🌞', rewardIds: [earlyBird, shirt], at: past(5 * day - 3 * hour) },
      { displayName: 'Ayşe Öztürk', rewardIds: [charger], at: past(4 * day) },
      {
        displayName: 'Ökodorf e.V.',
        amount: 1000,
        rewardIds: Array(5).fill(earlyBird),
        at: past(4 * day - 5 * hour),
      },
      { displayName: 'Mats Nørgaard', rewardIds: [shirt], at: past(3 * day) },
      { displayName: 'François Dubois', amount: 20, at: past(3 * day - 4 * hour) },
      { displayName: 'Małgorzata K.', rewardIds: [earlyBird], at: past(2 * day) },
      { displayName: 'Sakura Tanaka', rewardIds: [charger, postcard], at: past(2 * day - 6 * hour) },
      { displayName: 'Anonymous Backer', amount: 50, at: past(day) },
      { displayName: 'José García', rewardIds: Array(5).fill(earlyBird), at: past(20 * hour) },
      { displayName: 'TeamBerlin', rewardIds: Array(6).fill(earlyBird), at: past(10 * hour) },
      { displayName: 'Café Glück', amount: 300, rewardIds: [earlyBird], at: past(6 * hour) },
    ],
    subscribers: [
      { at: past(5 * day), newsSubscribed: true },
      { at: past(4 * day), user: null, newsSubscribed: true },
      { at: past(2 * day), newsSubscribed: false },
      { at: past(3 * hour), newsSubscribed: true },
    ],
    wallPosts: [
      { authorName: 'Jürgen Weiß', message: 'Tolles Projekt, viel Erfolg! 🎉', at: past(5 * day - 2 * hour) },
      { authorName: 'Zoë 🌞', message: 'Can’t wait to see it in our street ☀️', at: past(4 * day) },
      { authorName: 'Nachbar @everyone', message: 'Hey @everyone, schaut euch das an!', at: past(2 * day) },
      { authorName: 'Sakura Tanaka', message: 'がんばって！ Good luck from Osaka', at: past(30 * hour) },
      {
        authorName: 'Mats Nørgaard',
        message: 'Shared it with my neighbours. **Go go go**',
        at: past(2 * hour),
      },
    ],
    blogPosts: [
      {
        title: 'We are live! ☀️',
        text: '<p>Today our campaign starts. Thank you for being here from day one.</p>',
        type: 'text',
        supporterOnly: false,
        at: past(5 * day),
      },
      {
        title: 'Meet the team',
        text: '<p>Clara, Ole and Fatima introduce themselves in a short video.</p>',
        type: 'story',
        supporterOnly: false,
        at: past(4 * day),
      },
      {
        title: 'For supporters: the factory visit',
        text: `<p>${'Exclusive photos and numbers from the panel factory, only for our supporters. '.repeat(40)}</p>`,
        type: 'text',
        supporterOnly: true,
        at: past(2 * day),
      },
      {
        title: 'Backstage story (supporters only)',
        text: '<p>A look behind the scenes of our prototype test run.</p>',
        type: 'story',
        supporterOnly: true,
        at: past(day),
      },
    ],
  };
}
