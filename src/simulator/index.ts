/**
 * Local simulator of the crowdfunding platform's Project Data API: a real HTTP
 * server on 127.0.0.1 with live campaign controls, fault injection and a
 * scenario engine on an injected clock. Backs the demo, the tests and the benchmark.
 */

export {
  type CampaignAction,
  type CampaignPlan,
  type CampaignProfile,
  minuteDistribution,
  type PlanCampaignDayOptions,
  planCampaignDay,
} from './campaign-plan.js';
export { demoLinkCaption, demoProjectSeed, demoRewards, demoTeam } from './demo-project.js';
export type { FaultControls, FaultKind, FaultMatch, FaultStats } from './faults.js';
export { hostileLongText, hostileTexts } from './hostile-texts.js';
export { buildOpenApiDocument, type OpenApiVariant, openApiVariants } from './openapi.js';
export { defaultRateLimits } from './rate-limiter.js';
export { createScenario, type Scenario, type ScenarioProgress } from './scenario.js';
export { type LiveCampaign, type LiveCampaignOptions, startLiveCampaign } from './scenario-live.js';
export { type Page, SimProject, SimulatorUsageError } from './sim-project.js';
export { type Simulator, startSimulator } from './simulator.js';
export * from './types.js';
