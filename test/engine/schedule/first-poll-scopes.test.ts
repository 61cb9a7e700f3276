import { describe, expect, it } from 'vitest';
import { type FeedName, feedTable } from '../../../src/domain/feeds.js';
import type { ProjectScope } from '../../../src/simulator/types.js';
import { step, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

const allScopes: ProjectScope[] = [
  'project:read',
  'incentives:read',
  'blog:read',
  'fundings:read',
  'wall:read',
];
const lists: FeedName[] = ['fundings', 'wall', 'blog', 'incentives'];

describe("a list's first poll is the check of its scope (the start-up key check reads only the project)", () => {
  it.each(lists)(
    'a key without the %s scope: one warning from the feed table, saying what to do',
    async (feed) => {
      const { scope, offConsequence } = feedTable[feed];
      const h = await startHarness({ scopes: allScopes.filter((s) => s !== scope) });
      await step(h);
      const warned = h.logger.warnings.filter((w) => w.includes(`lacks ${scope}`));
      expect(warned).toEqual([
        `the key for solar-kiosk lacks ${scope}: ${offConsequence} (add the ${scope} scope to the key in project administration → API keys; fundbot re-checks after a few seconds, then less often, at least every 10 minutes)`,
      ]);
      const status = await h.engine.readModel.status('solar-kiosk');
      expect(status.feeds.find((f) => f.feed === feed)?.disabledReason).toEqual({
        code: 'scope-missing',
        params: { feed, scope },
      });
      // The other lists are on.
      expect(status.feeds.filter((f) => f.disabledReason !== undefined).map((f) => f.feed)).toEqual([feed]);
    },
  );
});
