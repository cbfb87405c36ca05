import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cadenaConciliacion,
  cadenaConsulta,
  cadenaRegistra,
  formatMonto,
  parseMonto,
  REGISTRA_FIELDS,
} from '../src/stp/stp-cadena.js';
import { demoPublicKeyPem, firmaValid } from '../src/stp/stp-signature.js';

// The recorded request of STP's demo environment (registraOrden, 2020-12-29, accepted as id 9349827),
// copied from the contract's signing vector so the emulator's cadena is proven against STP itself.
const VECTOR_KEY = `-----BEGIN ENCRYPTED PRIVATE KEY-----
MIICxjBABgkqhkiG9w0BBQ0wMzAbBgkqhkiG9w0BBQwwDgQIAPOngEipSGICAggA
MBQGCCqGSIb3DQMHBAi3RX0+96FhJASCAoAGX5N8jxBqlyKk8MTz/Q3a/V4fnCNA
IlPYybMbO00HbMNXw20Kn+WzK73VZtBdEf+8CBcqZMwuC0gqn5pdnOVqP0wz8MU5
AlWu0ZJpLo8npjQyV5Smrk1OvFREQ9skuJRBgYjPPTgdYmVN77ZGeFwJlf+OqOIM
JWZIFZY6z3cXn6CnaAvQ6L+/smRt1Us0gEMe1m7rln0M6m64EbOFsOonzp7/CRTd
Mmlsk93Lg8G/uwGrL3gf1TDep1yM1KKMu6pWZ+6zT26ykwNsdUg0NUCpeWeYWzDZ
KLzQ90U+/XlBPbPg/8gK6tc1dresvPbRcvNu+IJq8HbKuUkjrDeFor5Wezic3CyO
/g//2LJbJGy7Ak4V4W9J46GLD8B3fqyDz0itCBRcmlrtAXiV0azb1isD+j8LdOXN
vo/EPjLJnVdbP2RHiKKdp0Kq2FyRbigP86UujxwxfOxNN/w6m48agmVsj1uB6zBp
hn0D/MLkMtoV7NmGhayRxFXs5sO1G/lWOoR96PgNzOur8xnPzvG7ysPv9qKRO1XS
JEaGZXUUQ/sq2d6nLWMz9YLh7YVaVsRfIcUGPnmFh/bj30Pk52PodF6kN3JYftvn
ZaXgOf6E4NLpHjtYRTzyVZQamenDAlvHQwZE284hDPShuJwxFr6FOSR/GrgqbN4d
cOK898ofM+ZxkNkm5LrU3RAXR3336HU9XMky4UCV9L3CA51IlTMqt/CkddFhsjrw
W4Zo1Aj8G7FaoDm7XhkLGDwVjf0Ua1O4YHRpSgVSkrXeBgW7P4Tc+53nFns3rwxs
uzF/x9tl2+BdiDjPOhSRuoa1ypilODdpOGKNKuf0vu2jAbbzDILBYOfw
-----END ENCRYPTED PRIVATE KEY-----
`;
const VECTOR_PASSPHRASE = '12345678';
const VECTOR_FIRMA =
  'L1ABpeih5nwIuFQPZoqjAjaWk9+vslRevKH6XcY169/GJhosoYkL6RtrStaHVUbMvjii11IcQkhN+25qjQQJ+CUTb3dQjATb4uVBxtebJIPFoITztR1fI6ZMdTab7zt13p5SAvPpuLowjl3yV5B7zBX8Ud+AlB3/9JBUCVVyOmc=';
const VECTOR_BODY = {
  monto: 1.2,
  conceptoPago: 'Prueba',
  cuentaBeneficiario: '072691004495711499',
  nombreBeneficiario: 'Ricardo Sanchez',
  institucionContraparte: '40072',
  cuentaOrdenante: '646180110400000007',
  institucionOperante: '90646',
  tipoCuentaBeneficiario: 40,
  tipoCuentaOrdenante: 40,
  claveRastreo: 'CR1609257595',
  referenciaNumerica: 5273144,
  rfcCurpBeneficiario: 'ND',
  prioridad: 0,
  medioEntrega: 3,
  tipoPago: 1,
  topologia: 'T',
  firma: VECTOR_FIRMA,
  empresa: 'TAMIZI',
};
const VECTOR_CADENA =
  '||40072|TAMIZI|||CR1609257595|90646|1.20|1|40||646180110400000007||40|Ricardo Sanchez|072691004495711499|ND||||||Prueba||||||5273144||T||3|0|||';

const vectorPublicKey = createPublicKey(createPrivateKey({ key: VECTOR_KEY, passphrase: VECTOR_PASSPHRASE }));

describe('the cadena original', () => {
  it('rebuilds the recorded request of STP demo byte for byte, over 34 fields', () => {
    expect(REGISTRA_FIELDS).toHaveLength(34);
    expect(cadenaRegistra(VECTOR_BODY)).toBe(VECTOR_CADENA);
  });

  it('verifies the recorded firma with the public half of the key, and refuses it for any changed value', () => {
    expect(firmaValid(VECTOR_CADENA, VECTOR_FIRMA, vectorPublicKey)).toBe(true);
    expect(firmaValid(cadenaRegistra({ ...VECTOR_BODY, monto: 1.21 }), VECTOR_FIRMA, vectorPublicKey)).toBe(
      false,
    );
    expect(
      firmaValid(cadenaRegistra({ ...VECTOR_BODY, folioOrigen: 'X' }), VECTOR_FIRMA, vectorPublicKey),
    ).toBe(false);
    // The same signature in another encoding is not what STP accepts.
    const urlSafe = VECTOR_FIRMA.replaceAll('+', '-').replaceAll('/', '_');
    expect(firmaValid(VECTOR_CADENA, urlSafe, vectorPublicKey)).toBe(false);
    expect(
      firmaValid(VECTOR_CADENA, `${VECTOR_FIRMA.slice(0, 40)}\n${VECTOR_FIRMA.slice(40)}`, vectorPublicKey),
    ).toBe(false);
  });

  it('the default company key is the public half of the demo key the vector was signed with', () => {
    expect(firmaValid(VECTOR_CADENA, VECTOR_FIRMA, createPublicKey(demoPublicKeyPem()))).toBe(true);
  });

  it('signs an amount sent as a string or as a number with two decimals, and an absent field as empty', () => {
    expect(cadenaRegistra({ ...VECTOR_BODY, monto: '1.2' })).toBe(VECTOR_CADENA);
    expect(cadenaRegistra({ ...VECTOR_BODY, monto: '1.20', referenciaNumerica: '5273144' })).toBe(
      VECTOR_CADENA,
    );
    expect(cadenaRegistra({ ...VECTOR_BODY, iva: 0 })).toBe(VECTOR_CADENA.replace(/\|\|\|$/, '|0.00||'));
    expect(cadenaRegistra({ ...VECTOR_BODY, monto: 100 })).toContain('|90646|100.00|1|');
    // A malformed amount is signed as it came (and refused after the signature).
    expect(cadenaRegistra({ ...VECTOR_BODY, monto: 1.234 })).toContain('|90646|1.234|1|');
  });

  it('builds the query cadenas, an absent fechaOperacion as empty', () => {
    expect(cadenaConsulta({ empresa: 'TAMIZI', claveRastreo: 'CR1', tipoOrden: 'E' })).toBe(
      '||TAMIZI|CR1|E|||',
    );
    expect(
      cadenaConsulta({ empresa: 'TAMIZI', claveRastreo: 'CR1', tipoOrden: 'R', fechaOperacion: 20261126 }),
    ).toBe('||TAMIZI|CR1|R|20261126||');
    expect(cadenaConciliacion({ empresa: 'TAMIZI', tipoOrden: 'E', fechaOperacion: '20261126' })).toBe(
      '||TAMIZI|E|20261126||',
    );
  });

  it('a signature made with the demo key over the cadena verifies (RSA PKCS#1 v1.5 is deterministic)', () => {
    const key = createPrivateKey({ key: VECTOR_KEY, passphrase: VECTOR_PASSPHRASE });
    expect(sign('sha256', Buffer.from(VECTOR_CADENA, 'utf8'), key).toString('base64')).toBe(VECTOR_FIRMA);
  });
});

describe('amounts by their text', () => {
  it('reads numbers and strings with at most two decimals into centavos, and refuses the rest', () => {
    expect(parseMonto(1.2)).toBe(120);
    expect(parseMonto('1.20')).toBe(120);
    expect(parseMonto(100)).toBe(10_000);
    expect(parseMonto(0.1)).toBe(10);
    expect(parseMonto(99_999_999.99)).toBe(9_999_999_999);
    for (const bad of [1.234, '1.234', -1, '-1', '1e3', 1e21, '', ' 1', null, true, Number.NaN])
      expect(parseMonto(bad)).toBeUndefined();
  });

  it('renders centavos with exactly two decimals', () => {
    expect(formatMonto(120)).toBe('1.20');
    expect(formatMonto(5)).toBe('0.05');
    expect(formatMonto(0)).toBe('0.00');
    expect(formatMonto(9_999_999_999)).toBe('99999999.99');
    expect(() => formatMonto(1.5)).toThrow(RangeError);
  });
});
