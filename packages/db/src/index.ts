export {
  type CreateDbOptions,
  checkPostgres,
  createDb,
  ensureDatabase,
  isUniqueViolation,
} from './database.js';
export { DEPENDENCY_HINTS, type Dependency, DependencyUnavailableError, redactUrl } from './errors.js';
export { listen } from './listen.js';
export { MigrationError, migrateDatabase, migrateToLatest } from './migrate.js';
export {
  allColumns,
  type CompiledStatement,
  compiledOnce,
  executePrepared,
  type Placeholders,
  type QueryRunner,
} from './prepared.js';
export {
  type BatchRow,
  createPublishedOutboxIndex,
  deleteDueBatch,
  drainRetention,
  OLDEST_UNPUBLISHED_OUTBOX,
  type PlanNode,
  publishedOutboxRule,
  type RetentionLoopOptions,
  type RetentionRoundResult,
  type RetentionRule,
  retentionBatch,
  retentionLoop,
  retentionPlan,
  retentionRound,
} from './retention.js';
