import type { Clock } from '../lib/clock.js';
import { pick, type Random, seededRandom } from '../lib/random.js';
import { createNameGenerator } from './names.js';
import { SimulatorUsageError } from './sim-project.js';
import type { Simulator } from './simulator.js';

export interface LiveCampaignOptions {
  /** Default: the simulator's clock. */
  readonly clock?: Clock;
  /** Mean number of actions per minute (exponential gaps). Default 6. */
  readonly ratePerMinute?: number;
  /** Default: seededRandom(7). */
  readonly random?: Random;
  /** Share (0..1) of hostile names and messages. Default 0. */
  readonly hostileRate?: number;
}

export interface LiveCampaign {
  /** Stops the loop and waits until it has ended (no timer is left behind). */
  stop(): Promise<void>;
  /** Number of actions applied so far. */
  readonly actions: number;
}

/**
 * Keeps a project alive in real (or virtual) time for the demo and `npm run sim`:
 * supporters arrive (most with a reward), people post on the wall and subscribe,
 * now and then a support fails or a blog post appears. Waits with
 * `clock.sleep(ms, signal)` so stop() cancels the pending wait at once.
 */
export function startLiveCampaign(
  sim: Simulator,
  linkCaption: string,
  options: LiveCampaignOptions = {},
): LiveCampaign {
  const clock = options.clock ?? sim.clock;
  const random = options.random ?? seededRandom(7);
  const names = createNameGenerator(
    random,
    options.hostileRate === undefined ? {} : { hostileRate: options.hostileRate },
  );
  const meanGapMs = 60_000 / Math.max(0.001, options.ratePerMinute ?? 6);
  const project = sim.project(linkCaption);
  const controller = new AbortController();
  let actions = 0;
  let blogCount = 0;

  const act = () => {
    const roll = random.next();
    if (roll < 0.68) {
      const orderable = project.orderableRewardIds();
      const rewardId = random.next() < 0.8 && orderable.length > 0 ? pick(random, orderable) : undefined;
      const person = names.person();
      project.addSupporter({
        displayName: person.displayName,
        firstName: person.firstName,
        lastName: person.lastName,
        city: person.city,
        country: person.country,
        ...(rewardId === undefined
          ? { amount: pick(random, [5, 10, 20, 50, 100]) }
          : { rewardIds: [rewardId] }),
      });
    } else if (roll < 0.85) {
      project.addWallPost({ authorName: names.person().displayName, message: names.wallMessage() });
    } else if (roll < 0.94) {
      project.addSubscriber({ newsSubscribed: random.next() < 0.8 });
    } else if (roll < 0.98) {
      const keys = project.activeSupportKeys();
      const recent = keys.slice(-20);
      if (recent.length > 0) project.failSupport(pick(random, recent));
    } else {
      const post = names.blogPost(blogCount);
      project.addBlogPost({
        ...post,
        type: blogCount % 2 === 0 ? 'text' : 'story',
        supporterOnly: blogCount % 3 === 2,
      });
      blogCount++;
    }
    actions++;
  };

  const loop = (async () => {
    while (!controller.signal.aborted) {
      const gap = Math.max(1, Math.round(-Math.log(1 - random.next()) * meanGapMs));
      try {
        await clock.sleep(gap, controller.signal);
      } catch {
        return;
      }
      try {
        act();
      } catch (error) {
        // A paid-out project refuses new supports: the live loop just carries on with the rest.
        if (!(error instanceof SimulatorUsageError)) throw error;
      }
    }
  })();

  return {
    async stop() {
      controller.abort(new Error('live campaign stopped'));
      await loop;
    },
    get actions() {
      return actions;
    },
  };
}
