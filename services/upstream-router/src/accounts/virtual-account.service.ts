import type { Logger } from '@agentpay/logger';
import type {
  CreateVirtualAccountRequest__Output,
  UpstreamPayment,
  VirtualAccount,
  VirtualAccountRef__Output,
} from '@agentpay/proto';
import { institutionByClabePrefix } from '@agentpay/spei';
import type { Kysely } from 'kysely';
import type { PaymentState, VirtualAccountResult } from '../adapters/channel-adapter.js';
import type { Database, RouteRow, VirtualAccountRow } from '../db/schema.js';
import { instantText, requireCentavos, requireInstant, requireText } from '../grpc-args.js';
import { PUBLIC_BANK_CODES } from '../options/catalog.js';
import type { Channel, Channels } from '../routes/channels.js';
import type { Breakers } from '../routing/circuit-breaker.js';
import { withFailover } from '../routing/failover.js';
import type { RouteSelector } from '../routing/route-selector.js';
import { toAppError } from '../routing/upstream-errors.js';
import { allocateClabe } from './clabe-allocator.js';
import {
  closeAccount,
  findVirtualAccount,
  followChannelState,
  insertVirtualAccount,
  retireStaleAccount,
} from './virtual-account.repository.js';

/** The public (Banxico) code of the bank holding an issued CLABE, from the route's map or the CLABE itself. */
function publicBankCode(route: RouteRow, channelCode: string, clabe: string): string {
  const mapped = Object.entries(route.code_map).find(([, upstream]) => upstream === channelCode)?.[0];
  return mapped ?? institutionByClabePrefix(clabe.slice(0, 3))?.spei ?? '';
}

function upstreamPayment(state: PaymentState): UpstreamPayment {
  return {
    status: state.status,
    paid_amount: String(state.paidAmount),
    paid_at: instantText(state.paidAt),
    clave_rastreo: state.claveRastreo ?? '',
  };
}

/** An assigned account's state, as the router (which decides its deposits) holds it. */
function recordedState(account: VirtualAccountRow): PaymentState {
  const status = account.status === 'open' ? 'wait' : account.status === 'paid' ? 'success' : 'close';
  return {
    status,
    paidAmount: account.paid_amount,
    paidAt: account.paid_at ?? undefined,
    claveRastreo: account.clave_rastreo,
  };
}

const CHANNEL_STATUS = { wait: 'open', success: 'paid', close: 'closed', fail: 'closed' } as const;

/**
 * Virtual accounts for payment orders, opened on a selected route and then always handled on that route.
 * Where the channel lets the platform number its CLABEs (`assigned`), the router allocates one under the
 * route's prefix and is the account's record: closing and querying read and change its row, and deposits
 * are decided against it. Where the channel opens accounts itself (`opened`), the router asks the channel
 * and keeps its row in step.
 */
export function createVirtualAccountService(deps: {
  db: Kysely<Database>;
  selector: RouteSelector;
  channels: Channels;
  breakers: Breakers;
  logger: Logger;
  /** CLABE_QUARANTINE_DAYS */
  quarantineDays: number;
}) {
  const { db, selector, channels, breakers, logger } = deps;

  async function openOn(
    channel: Channel,
    request: { orderNo: string; amount: number; expiredTime: Date },
  ): Promise<VirtualAccountResult> {
    const { adapter, route } = channel;
    const model = adapter.accounts;
    if (model.kind === 'opened') {
      const result = await model.open(route, request);
      await insertVirtualAccount(db, {
        orderNo: request.orderNo,
        routeId: route.id,
        clabe: result.clabe,
        amount: request.amount,
        assigned: false,
        upstreamRef: result.upstreamRef,
        expiresAt: request.expiredTime,
      });
      return result;
    }
    // A repeated create (payments retrying after a lost answer) gets the account the order already has.
    let account = await findVirtualAccount(db, request.orderNo);
    if (!account || account.route_id !== route.id) {
      for (let attempt = 0; ; attempt++) {
        const clabe = await allocateClabe(db, {
          routeId: route.id,
          prefix: model.clabePrefix(route),
          reserved: model.reserved(route),
          quarantineDays: deps.quarantineDays,
        });
        await retireStaleAccount(db, route.id, clabe, deps.quarantineDays);
        try {
          await insertVirtualAccount(db, {
            orderNo: request.orderNo,
            routeId: route.id,
            clabe,
            amount: request.amount,
            assigned: true,
            upstreamRef: '',
            expiresAt: request.expiredTime,
          });
          break;
        } catch (err) {
          // Another open account took this CLABE (the cursor came round past one still open): take the next.
          if (attempt >= 3 || (err as { code?: string }).code !== '23505') throw err;
        }
      }
      account = await findVirtualAccount(db, request.orderNo);
    }
    if (!account) throw new Error(`virtual account of ${request.orderNo} vanished after it was recorded`);
    const shown = model.presentation(route);
    return {
      clabe: account.clabe,
      bankCode: shown.bankCode,
      bankName: shown.bankName,
      beneficiaryName: shown.beneficiaryName,
      reference: account.clabe.slice(10, 17),
      upstreamRef: account.upstream_ref,
    };
  }

  async function onRecordedRoute(
    ref: VirtualAccountRef__Output,
    operation: 'close' | 'query',
  ): Promise<UpstreamPayment> {
    const orderNo = requireText(ref.order_no, 'order_no');
    const route = await selector.byId(requireText(ref.route_id, 'route_id'));
    try {
      const channel = channels.of(route);
      const model = channel.adapter.accounts;
      if (model.kind === 'assigned') {
        const account =
          operation === 'close' ? await closeAccount(db, orderNo) : await findVirtualAccount(db, orderNo);
        if (!account) {
          // The router never recorded one (the create's answer was lost before it did): nothing can pay it.
          return upstreamPayment({ status: 'close', paidAmount: 0 });
        }
        return upstreamPayment(recordedState(account));
      }
      const r = { orderNo, upstreamRef: ref.upstream_ref };
      const state =
        operation === 'close' ? await model.close(channel.route, r) : await model.query(channel.route, r);
      await followChannelState(db, orderNo, {
        status: CHANNEL_STATUS[state.status],
        paidAmount: state.paidAmount,
        paidAt: state.paidAt,
        claveRastreo: state.claveRastreo ?? '',
      });
      return upstreamPayment(state);
    } catch (err) {
      throw toAppError(err, {
        logger,
        operation: operation === 'close' ? 'CloseVirtualAccount' : 'QueryVirtualAccount',
        routeId: route.id,
      });
    }
  }

  return {
    async create(request: CreateVirtualAccountRequest__Output): Promise<VirtualAccount> {
      const mchNo = requireText(request.mch_no, 'mch_no');
      const method = requireText(request.method, 'method');
      const orderNo = requireText(request.order_no, 'order_no');
      const amount = requireCentavos(request.amount, 'amount');
      const expiredTime = requireInstant(request.expired_time, 'expired_time');

      const routes = await selector.forMethod(mchNo, method);
      try {
        const { route, result } = await withFailover(
          routes,
          (r) => openOn(channels.of(r), { orderNo, amount, expiredTime }),
          { logger, operation: 'CreateVirtualAccount', breakers },
        );
        const bankCode = publicBankCode(route, result.bankCode, result.clabe);
        return {
          route_id: route.id,
          clabe: result.clabe,
          bank_code: bankCode,
          bank_name: PUBLIC_BANK_CODES.get(bankCode) ?? result.bankName,
          beneficiary_name: result.beneficiaryName,
          reference: result.reference,
          upstream_ref: result.upstreamRef,
        };
      } catch (err) {
        throw toAppError(err, { logger, operation: 'CreateVirtualAccount' });
      }
    },

    close(ref: VirtualAccountRef__Output): Promise<UpstreamPayment> {
      return onRecordedRoute(ref, 'close');
    },

    query(ref: VirtualAccountRef__Output): Promise<UpstreamPayment> {
      return onRecordedRoute(ref, 'query');
    },
  };
}

export type VirtualAccountService = ReturnType<typeof createVirtualAccountService>;
