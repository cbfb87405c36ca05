import { describe, expect, it } from 'vitest';
import {
  abonoBody,
  cambioEstadoBody,
  conciliacionAnswer,
  consultaAnswer,
  registraAnswer,
} from './stp.protocol.js';

describe('STP answer schemas', () => {
  it('reads an accepted and a refused registraOrden answer', () => {
    expect(registraAnswer.parse({ resultado: { id: 9349827 } })).toEqual({ resultado: { id: 9349827 } });
    expect(
      registraAnswer.parse({ resultado: { id: '-7', descripcionError: 'La cuenta no existe' } }),
    ).toEqual({
      resultado: { id: -7, descripcionError: 'La cuenta no existe' },
    });
    expect(registraAnswer.safeParse({ resultado: { id: 'abc' } }).success).toBe(false);
    expect(registraAnswer.safeParse({ id: 1 }).success).toBe(false);
  });

  it('reads an order with numbers as strings, amounts as centavos and the id under either name', () => {
    const answer = consultaAnswer.parse({
      estado: '0',
      mensaje: 'Datos consultados correctamente',
      respuesta: {
        id: '9349827',
        claveRastreo: 'CR1609257595',
        estado: 'LQ',
        monto: 1.2,
        tsLiquidacion: '1609257595123',
        causaDevolucion: null,
        institucionContraparte: 40072,
        fechaOperacion: 20201229,
        unknownField: { nested: true },
      },
    });
    expect(answer.estado).toBe(0);
    expect(answer.respuesta).toMatchObject({
      idEF: 9349827,
      claveRastreo: 'CR1609257595',
      estado: 'LQ',
      monto: 120,
      institucionContraparte: '40072',
      fechaOperacion: '20201229',
      causaDevolucion: undefined,
    });
    expect(answer.respuesta?.tsLiquidacion?.toISOString()).toBe('2020-12-29T15:59:55.123Z');
    expect(
      consultaAnswer.parse({ estado: 0, respuesta: { idEF: 5, id: 9, claveRastreo: 'X', estado: 'A' } })
        .respuesta?.idEF,
    ).toBe(5);
  });

  it('reads the not-found answer and refuses an order without its key or estado', () => {
    expect(consultaAnswer.parse({ estado: 6, mensaje: 'No se encontraron datos relacionados' })).toEqual({
      estado: 6,
      mensaje: 'No se encontraron datos relacionados',
      respuesta: undefined,
    });
    expect(consultaAnswer.safeParse({ estado: 0, mensaje: '', respuesta: { estado: 'LQ' } }).success).toBe(
      false,
    );
    expect(
      consultaAnswer.safeParse({
        estado: 0,
        mensaje: '',
        respuesta: { claveRastreo: 'X', estado: 'LQ', monto: 1.005 },
      }).success,
    ).toBe(false);
  });

  it('reads a conciliacion page', () => {
    const page = conciliacionAnswer.parse({
      estado: 0,
      mensaje: 'ok',
      datos: [{ idEF: 1, claveRastreo: 'A', estado: 'LQ', monto: '10.50' }],
      total: '31',
    });
    expect(page.total).toBe(31);
    expect(page.datos?.[0]?.monto).toBe(1050);
  });
});

describe('STP webhook schemas', () => {
  const abono = {
    id: 2935671,
    fechaOperacion: 20201229,
    institucionOrdenante: 40072,
    institucionBeneficiaria: 90646,
    claveRastreo: 'MBAN01002012290093561740',
    monto: 1500.5,
    nombreOrdenante: 'MARIA PEREZ',
    tipoCuentaOrdenante: 40,
    cuentaOrdenante: '072691004495711499',
    rfcCurpOrdenante: 'ND',
    nombreBeneficiario: 'AGENTPAY',
    tipoCuentaBeneficiario: 40,
    cuentaBeneficiario: '646180110400000007',
    rfcCurpBeneficiario: null,
    conceptoPago: 'PAGO',
    referenciaNumerica: 1234567,
    empresa: 'TAMIZI',
    tsLiquidacion: 1609257595123,
  };

  it('reads a deposit with numbers as numbers or strings', () => {
    const asNumbers = abonoBody.parse(abono);
    expect(asNumbers).toMatchObject({
      id: 2935671,
      monto: 150050,
      fechaOperacion: '20201229',
      institucionOrdenante: '40072',
    });
    expect(asNumbers.rfcCurpBeneficiario).toBeUndefined();
    const asStrings = abonoBody.parse({
      ...abono,
      id: '2935671',
      monto: '1500.50',
      tipoCuentaOrdenante: '40',
      tsLiquidacion: '1609257595123',
    });
    expect(asStrings).toEqual(asNumbers);
  });

  it('refuses a deposit without a usable amount, account or key', () => {
    expect(abonoBody.safeParse({ ...abono, monto: 'mil' }).success).toBe(false);
    expect(abonoBody.safeParse({ ...abono, monto: -5 }).success).toBe(false);
    expect(abonoBody.safeParse({ ...abono, cuentaBeneficiario: undefined }).success).toBe(false);
    expect(abonoBody.safeParse({ ...abono, claveRastreo: '' }).success).toBe(false);
  });

  it('reads a payout state change', () => {
    const body = cambioEstadoBody.parse({
      id: '9349827',
      empresa: 'TAMIZI',
      folioOrigen: null,
      estado: 'D',
      causaDevolucion: 1,
      tsLiquidacion: '1609257595123',
    });
    expect(body).toMatchObject({ id: 9349827, estado: 'D', causaDevolucion: '1', folioOrigen: undefined });
    expect(body.tsLiquidacion?.getTime()).toBe(1609257595123);
    expect(cambioEstadoBody.safeParse({ id: 1 }).success).toBe(false);
  });
});
