import type { Migration } from 'kysely';
import * as routes from './20261121T0500_routes.js';
import * as upstreamNotices from './20261121T0600_upstream_notices.js';
import * as routesNotify from './20261122T0700_routes_notify.js';
import * as noticeOutbox from './20261123T0900_notice_outbox.js';
import * as retentionIndexes from './20261124T0200_retention_indexes.js';
import * as channelRecords from './20261126T2300_channel_records.js';
import * as routeActors from './20261127T0900_route_actors.js';
import * as routeFigures from './20261127T1100_route_figures.js';
import * as channelFactIndexes from './20261127T1200_channel_fact_indexes.js';

/** Every migration of the router database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '20261121T0500_routes': routes,
  '20261121T0600_upstream_notices': upstreamNotices,
  '20261122T0700_routes_notify': routesNotify,
  '20261123T0900_notice_outbox': noticeOutbox,
  '20261124T0200_retention_indexes': retentionIndexes,
  '20261126T2300_channel_records': channelRecords,
  '20261127T0900_route_actors': routeActors,
  '20261127T1100_route_figures': routeFigures,
  '20261127T1200_channel_fact_indexes': channelFactIndexes,
};
