export {
  loadSettings,
  type AdditionalDirectory,
  type CliSettings,
  type LoadSettingsOptions,
  type LoadedSettings,
  type McpServersFromSource,
} from './load-settings.js';
export { saveRule, type SaveRuleOptions, type SaveRuleResult } from './save-rule.js';
export {
  listProjectTrust,
  readProjectTrust,
  trustStoreKey,
  writeProjectTrust,
  type ProjectTrust,
  type ProjectTrustEntry,
  type ProjectTrustOptions,
} from './trust-store.js';
export {
  howToTrust,
  resolveProjectTrust,
  trustFromEnvironment,
  TRUST_PROJECT_VARIABLE,
  type ResolvedTrust,
  type TrustGrant,
} from './resolve-project-trust.js';
export {
  settingsPaths,
  MANAGED_SETTINGS_PATH,
  type SettingsPaths,
  type SettingsPathsOptions,
} from './settings-paths.js';
export {
  parseSettingsText,
  settingsFileSchema,
  type ParsedSettings,
  type SettingsFile,
  type SettingsWarning,
} from './parse-settings-text.js';
export { checkRule, ruleToolName, type CheckRuleOptions, type RuleCheck } from './check-rule.js';
export { splitToolList } from './split-tool-list.js';
export {
  parseJsonDocument,
  type JsonDocument,
  type JsonParseResult,
  type TextPosition,
} from './parse-json-document.js';
export {
  mergeSandboxSettings,
  sandboxSettingsSchema,
  type SandboxFileSettings,
  type SandboxSource,
} from './sandbox-settings.js';
export {
  ABSENT,
  confirmContent,
  hashContent,
  readHoldTable,
  recordHolds,
  type HeldFile,
  type HoldRecord,
  type HoldTable,
  type KeptRules,
} from './settings-holds.js';
export {
  createSettingsWatch,
  type HeldChangeReport,
  type SettingsWatch,
  type SettingsWatchOptions,
} from './settings-watch.js';
export { recordTrustAnswer, type RecordTrustAnswerOptions } from './record-trust-answer.js';
