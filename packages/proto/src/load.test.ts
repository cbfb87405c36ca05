import { describe, expect, it } from 'vitest';
import { loadProtos } from './load.js';

describe('loadProtos', () => {
  it('loads every service the platform serves, with int64 as strings and defaults filled', () => {
    const protos = loadProtos();
    expect(Object.keys(protos.agentpay.payments.v1.PaymentService.service)).toContain('CreatePayOrder');
    expect(Object.keys(protos.agentpay.transfers.v1.TransferService.service)).toContain('CreateTransfer');
    expect(Object.keys(protos.agentpay.router.v1.UpstreamRouter.service)).toContain('SubmitPayout');
    const method = protos.agentpay.payments.v1.PaymentService.service.GetPayOrder;
    const bytes = method.responseSerialize({ order_no: 'P1', amount: '10050' });
    const decoded = method.responseDeserialize(bytes) as unknown as Record<string, unknown>;
    expect(decoded).toMatchObject({ order_no: 'P1', amount: '10050', status: '' });
  });
});
