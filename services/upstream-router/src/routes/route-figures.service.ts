import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type RouteDayFigures, routeFiguresOfDay } from './route-figures.repository.js';

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Whether `day` is a real yyyy-MM-dd day (2021-02-30 is not). */
export function isDay(day: string): boolean {
  return DAY.test(day) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
}

/** The use case behind RouteAdmin.RouteFigures: a day's pay-ins and payouts per route. */
export function createRouteFigures(deps: {
  db: Kysely<Database>;
  /** API_TIME_ZONE: whose wall-clock day `day` is. */
  timeZone: string;
}) {
  return {
    /** Every route's figures of `day` (caller checked it with isDay). */
    ofDay: (day: string): Promise<RouteDayFigures[]> => routeFiguresOfDay(deps.db, day, deps.timeZone),
  };
}
export type RouteFigures = ReturnType<typeof createRouteFigures>;
