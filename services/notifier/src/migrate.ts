import { isEntryPoint, runTask } from '@agentpay/config';
import { migrateEntry } from '@agentpay/service';
import { notifierEnv } from './config.js';
import { migrations } from './db/migrations/index.js';

/** Creates the notifier database if missing and applies every pending migration (advisory-locked). */
export const migrate = migrateEntry({ service: 'notifier', schema: notifierEnv, migrations });

if (isEntryPoint(import.meta.url)) runTask('notifier migrate', migrate);
