import { defaultCampaign, runCampaignDay } from './campaign-day.js';
import { pacingDaySection } from './pacing-day.js';
import { RssPeak } from './stats.js';

const f = await runCampaignDay([pacingDaySection], new RssPeak(), { ...defaultCampaign, naive: false });
const pick = (k: string) => f[k];
console.log(
  JSON.stringify({
    m: pick('messagesPerChannel'),
    n: pick('supporterNamesDelivered'),
    w: pick('wrongFacts'),
    c: pick('corrections'),
    d: pick('drops'),
    pd: pick('pacingDuplicates'),
    pm: pick('pacingMisses'),
    det: (f['details'] as Record<string, unknown>)['pacingDay'],
    dup: pick('duplicates'),
    miss: pick('misses'),
    lat: pick('latencyMs'),
  }),
);
