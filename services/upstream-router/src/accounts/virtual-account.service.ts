import type { Logger } from '@agentpay/logger';
import type {
  CreateVirtualAccountRequest__Output,
  UpstreamPayment,
  VirtualAccount,
  VirtualAccountRef__Output,
} from '@agentpay/proto';
import { institutionByClabePrefix } from '@agentpay/spei';
import type { PaymentState } from '../adapters/channel-adapter.js';
import type { RouteRow } from '../db/schema.js';
import { instantText, requireCentavos, requireInstant, requireText } from '../grpc-args.js';
import { PUBLIC_BANK_CODES } from '../options/catalog.js';
import type { Channels } from '../routes/channels.js';
import type { Breakers } from '../routing/circuit-breaker.js';
import { withFailover } from '../routing/failover.js';
import type { RouteSelector } from '../routing/route-selector.js';
import { toAppError } from '../routing/upstream-errors.js';

/** The public (Banxico) code of the bank holding an issued CLABE, from the route's map or the CLABE itself. */
function publicBankCode(route: RouteRow, channelCode: string, clabe: string): string {
  const mapped = Object.entries(route.code_map).find(([, upstream]) => upstream === channelCode)?.[0];
  return mapped ?? institutionByClabePrefix(clabe.slice(0, 3))?.spei ?? '';
}

function upstreamPayment(state: PaymentState): UpstreamPayment {
  return { status: state.status, paid_amount: String(state.paidAmount), paid_at: instantText(state.paidAt) };
}

/** Virtual accounts for payment orders: opened on a selected route, then always handled on that route. */
export function createVirtualAccountService(deps: {
  selector: RouteSelector;
  channels: Channels;
  breakers: Breakers;
  logger: Logger;
}) {
  const { selector, channels, breakers, logger } = deps;

  async function onRecordedRoute(
    ref: VirtualAccountRef__Output,
    operation: string,
    run: (
      channel: ReturnType<Channels['of']>,
      ref: { orderNo: string; upstreamRef: string },
    ) => Promise<PaymentState>,
  ): Promise<UpstreamPayment> {
    const orderNo = requireText(ref.order_no, 'order_no');
    const route = await selector.byId(requireText(ref.route_id, 'route_id'));
    try {
      return upstreamPayment(await run(channels.of(route), { orderNo, upstreamRef: ref.upstream_ref }));
    } catch (err) {
      throw toAppError(err, { logger, operation, routeId: route.id });
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
          (r) => {
            const channel = channels.of(r);
            return channel.adapter.createVirtualAccount(channel.route, { orderNo, amount, expiredTime });
          },
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
      return onRecordedRoute(ref, 'CloseVirtualAccount', (c, r) => c.adapter.closeVirtualAccount(c.route, r));
    },

    query(ref: VirtualAccountRef__Output): Promise<UpstreamPayment> {
      return onRecordedRoute(ref, 'QueryVirtualAccount', (c, r) => c.adapter.queryVirtualAccount(c.route, r));
    },
  };
}

export type VirtualAccountService = ReturnType<typeof createVirtualAccountService>;
