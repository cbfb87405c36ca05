export { type BootstrapOptions, bootstrapService, type ServiceBase } from './bootstrap.js';
export { migrateEntry } from './migrate-entry.js';
export { natsProvisionEnv, provisionEventsStream } from './nats-provision.js';
