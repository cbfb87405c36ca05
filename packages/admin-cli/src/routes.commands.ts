import type { Command, Options } from './command.js';
import * as commands from './commands.js';

const routeBody: Options = { body: { type: 'string' }, file: { type: 'string' } };
const ROUTES_NOTE = 'requires the routes admin API';

/** Upstream routes (the routes admin API). */
export const ROUTES_COMMANDS: Record<string, Command> = {
  'routes list': {
    usage: 'routes list',
    summary: `List upstream routes (${ROUTES_NOTE}).`,
    options: {},
    run: commands.routesList,
  },
  'routes show': {
    usage: 'routes show <routeId>',
    summary: `One route with its merchants and breaker state (${ROUTES_NOTE}).`,
    options: {},
    run: commands.routesShow,
  },
  'routes create': {
    usage: 'routes create (--body <json> | --file <route.json>)',
    summary: `Create an upstream route (${ROUTES_NOTE}).`,
    options: routeBody,
    run: commands.routesCreate,
  },
  'routes update': {
    usage: 'routes update <routeId> (--body <json> | --file <patch.json>)',
    summary: `Change any field of a route but its id, e.g. --body '{"weight":0}' (${ROUTES_NOTE}).`,
    options: routeBody,
    run: commands.routesUpdate,
  },
  'routes enable': {
    usage: 'routes enable <routeId>',
    summary: `Put a route back into selection (${ROUTES_NOTE}).`,
    options: {},
    run: commands.routesEnabled(true),
  },
  'routes disable': {
    usage: 'routes disable <routeId>',
    summary: `Take a route out of selection; its open orders still finish on it (${ROUTES_NOTE}).`,
    options: {},
    run: commands.routesEnabled(false),
  },
  'routes merchants': {
    usage: 'routes merchants <routeId> (--mch-no <mchNo>... | --none)',
    summary: `Replace the merchants a route serves when its merchantScope is list (${ROUTES_NOTE}).`,
    options: { 'mch-no': { type: 'string', multiple: true }, none: { type: 'boolean' } },
    run: commands.routesMerchants,
  },
  'routes bind': {
    usage: 'routes bind <routeId> --mch-no <mchNo>',
    summary: `Bind one merchant to a route (${ROUTES_NOTE}).`,
    options: { 'mch-no': { type: 'string' } },
    run: commands.routesBinding(true),
  },
  'routes unbind': {
    usage: 'routes unbind <routeId> --mch-no <mchNo>',
    summary: `Unbind one merchant from a route (${ROUTES_NOTE}).`,
    options: { 'mch-no': { type: 'string' } },
    run: commands.routesBinding(false),
  },
};
