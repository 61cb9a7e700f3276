/**
 * Configuration: one JSON file (no secrets) plus environment variables, validated
 * once at start-up with every problem reported together; and the start-up key check.
 */
export {
  type CheckProjectKeysOptions,
  checkProjectKeys,
  type FeatureState,
  type KeyCheckProject,
  type KeyCheckReport,
  type ProjectFeature,
  type ProjectKeyStatus,
  projectFeatures,
} from './check-keys.js';
export {
  type ConfigProblem,
  type ConfigProblemCode,
  formatConfigProblem,
  formatConfigProblems,
} from './config-problem.js';
export { DEFAULT_CONFIG_PATH, type Env, envVars, readEnv } from './env-vars.js';
export {
  configPath,
  type DigestConfig,
  type DiscordConfig,
  type FundbotConfig,
  type LoadConfigOptions,
  type LoadConfigResult,
  loadConfig,
  type ProjectConfig,
  parseConfig,
  type ReadTextFile,
  readTextFileSync,
  type SlackConfig,
} from './load-config.js';
export { describeWrappedKey } from './resolve-projects.js';
export { resolveStartMode, type StartMode } from './resolve-start-mode.js';
export { type ConfigFile, configFileSchema, DEFAULT_MILESTONES, DEFAULT_STORE_URL } from './schema.js';
export { Secret } from './secret.js';
export { checkPublicUrl } from './service-url.js';
