import { once } from 'node:events';
import type { Logger } from '@agentpay/logger';
import {
  type StatementLine as StatementLineMessage,
  type StatementRequest__Output,
  toServiceError,
  type UpstreamRouterHandlers,
  unary,
} from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { z } from 'zod';
import type { VirtualAccountService } from './accounts/virtual-account.service.js';
import type { StatementLine, StatementLookups } from './adapters/channel-adapter.js';
import type { RouteRow } from './db/schema.js';
import { requireText } from './grpc-args.js';
import type { OptionsService } from './options/options.service.js';
import type { PayoutService } from './payout/payout.service.js';
import type { Channels } from './routes/channels.js';
import { toAppError } from './routing/upstream-errors.js';

/** Where StreamStatement finds a route (enabled or not) and its channel. */
export interface StatementSource {
  /** The route by id; undefined when there is none. */
  findRoute(routeId: string): Promise<RouteRow | undefined>;
  channels: Channels;
  /** The router's own records of the route, for adapters whose statements name only the channel's keys. */
  lookups(routeId: string): StatementLookups;
}

export interface RouterGrpcDeps {
  logger: Logger;
  options: OptionsService;
  virtualAccounts: VirtualAccountService;
  payouts: PayoutService;
  /** Reading channel statements (StreamStatement). */
  statements: StatementSource;
}

const statementDay = z.iso.date();

function statementMessage(routeId: string, line: StatementLine): StatementLineMessage {
  return {
    route_id: routeId,
    reference: line.reference,
    clave_rastreo: line.claveRastreo,
    kind: line.kind,
    amount: String(line.amount),
    occurred_at: line.occurredAt.toISOString(),
    account: line.account,
    platform_ref: line.platformRef,
    upstream_ref: line.upstreamRef,
    sender_account: line.senderAccount,
    sender_name: line.senderName,
    applied: line.applied,
  };
}

/**
 * StreamStatement: the channel's lines as they arrive, each written only when the client can take it
 * (write answers false → wait for 'drain'), so a slow reader slows the channel read instead of filling
 * memory. The stream ends OK only when the adapter read the whole statement; any failure, even after
 * lines went out, ends it with an error status, so a cut statement never looks complete.
 */
async function streamStatement(
  call: grpc.ServerWritableStream<StatementRequest__Output, StatementLineMessage>,
  logger: Logger,
  source: StatementSource,
): Promise<void> {
  const gone = new AbortController();
  const leave = () => gone.abort();
  call.on('cancelled', leave);
  const routeId = call.request.route_id;
  let upstream = false;
  try {
    requireText(routeId, 'route_id');
    const day = statementDay.safeParse(call.request.day);
    if (!day.success) throw new AppError('INVALID_PARAMETER', 'day');
    const route = await source.findRoute(routeId);
    if (!route) {
      call.emit('error', { code: grpc.status.NOT_FOUND, details: `no route ${routeId}` });
      return;
    }
    upstream = true;
    const channel = source.channels.of(route);
    for await (const line of channel.adapter.fetchStatement(
      channel.route,
      day.data,
      source.lookups(route.id),
      gone.signal,
    )) {
      if (gone.signal.aborted) return;
      if (!call.write(statementMessage(route.id, line))) await once(call, 'drain', { signal: gone.signal });
    }
    call.end();
  } catch (err) {
    // The client went away: nobody is left to answer, and the channel read was stopped with it.
    if (gone.signal.aborted) return;
    // The channel's failures become platform codes in the one place; the router's own (its database) as usual.
    const error = upstream ? toAppError(err, { logger, operation: 'StreamStatement', routeId }) : err;
    call.emit('error', toServiceError(error, logger));
  } finally {
    call.off('cancelled', leave);
  }
}

/** The UpstreamRouter gRPC service; ListChannelFacts is facts/channel-facts.grpc.ts'. */
export function createRouterHandlers(deps: RouterGrpcDeps): Omit<UpstreamRouterHandlers, 'ListChannelFacts'> {
  const { logger, options, virtualAccounts, payouts, statements } = deps;
  return {
    StreamStatement: (call: grpc.ServerWritableStream<StatementRequest__Output, StatementLineMessage>) =>
      void streamStatement(call, logger, statements),
    ListPayMethods: unary(logger, (req) => options.payMethods(req.mch_no)),
    ListPayeeTypes: unary(logger, (req) => options.payeeTypes(req.mch_no)),
    ListPayeeCodes: unary(logger, (req) => options.payeeCodes(req.mch_no, req.payee_type)),
    CreateVirtualAccount: unary(logger, (req) => virtualAccounts.create(req)),
    CloseVirtualAccount: unary(logger, (req) => virtualAccounts.close(req)),
    QueryVirtualAccount: unary(logger, (req) => virtualAccounts.query(req)),
    InquirePayee: unary(logger, (req) => payouts.inquire(req)),
    SubmitPayout: unary(logger, (req) => payouts.submit(req)),
    QueryPayout: unary(logger, (req) => payouts.query(req)),
  };
}
