import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cadenaConciliacion,
  cadenaConsulta,
  cadenaRegistra,
  loadSigningKey,
  REGISTRA_FIELDS,
  sign,
} from './stp.signing.js';

// One request recorded against STP's demo environment (registraOrden, 2020-12-29), which STP accepted
// ({"resultado":{"id":9349827}}). The key is STP's public demo key (encrypted PKCS#8, RSA-1024).
const DEMO_KEY_PEM = `-----BEGIN ENCRYPTED PRIVATE KEY-----
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
const DEMO_PASSPHRASE = '12345678';

const RECORDED_BODY = {
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
  empresa: 'TAMIZI',
};
const RECORDED_CADENA =
  '||40072|TAMIZI|||CR1609257595|90646|1.20|1|40||646180110400000007||40|Ricardo Sanchez|072691004495711499|ND||||||Prueba||||||5273144||T||3|0|||';
const RECORDED_FIRMA =
  'L1ABpeih5nwIuFQPZoqjAjaWk9+vslRevKH6XcY169/GJhosoYkL6RtrStaHVUbMvjii11IcQkhN+25qjQQJ+CUTb3dQjATb4uVBxtebJIPFoITztR1fI6ZMdTab7zt13p5SAvPpuLowjl3yV5B7zBX8Ud+AlB3/9JBUCVVyOmc=';

describe('STP signing', () => {
  it('lists the 34 fields of the payout cadena', () => {
    expect(REGISTRA_FIELDS).toHaveLength(34);
    expect(new Set(REGISTRA_FIELDS).size).toBe(34);
    expect(REGISTRA_FIELDS[0]).toBe('institucionContraparte');
    expect(REGISTRA_FIELDS[33]).toBe('iva');
  });

  it('rebuilds the recorded cadena from the recorded body, byte for byte', () => {
    expect(cadenaRegistra(RECORDED_BODY)).toBe(RECORDED_CADENA);
    // The amount in any form STP may see it, and null as absent, give the same cadena.
    expect(cadenaRegistra({ ...RECORDED_BODY, monto: '1.20', rfcCurpOrdenante: null })).toBe(RECORDED_CADENA);
  });

  it('signs the recorded cadena with the demo key into the recorded firma', () => {
    const key = loadSigningKey(DEMO_KEY_PEM, DEMO_PASSPHRASE);
    expect(sign(RECORDED_CADENA, key)).toBe(RECORDED_FIRMA);
    expect(sign(cadenaRegistra(RECORDED_BODY), key)).toBe(RECORDED_FIRMA);
  });

  it('renders amounts with two decimals, integers as digits with 0 kept', () => {
    const cadena = cadenaRegistra({ monto: 100, iva: 0.5, prioridad: 0, referenciaNumerica: 7 });
    const values = cadena.slice(2, -2).split('|');
    expect(values).toHaveLength(34);
    expect(values[REGISTRA_FIELDS.indexOf('monto')]).toBe('100.00');
    expect(values[REGISTRA_FIELDS.indexOf('iva')]).toBe('0.50');
    expect(values[REGISTRA_FIELDS.indexOf('prioridad')]).toBe('0');
    expect(values[REGISTRA_FIELDS.indexOf('referenciaNumerica')]).toBe('7');
  });

  it('refuses values STP would render differently', () => {
    expect(() => cadenaRegistra({ monto: 1.005 })).toThrow(RangeError);
    expect(() => cadenaRegistra({ prioridad: 0.5 })).toThrow(RangeError);
    expect(() => cadenaRegistra({ conceptoPago: { text: 'x' } })).toThrow(TypeError);
  });

  it('builds the query and day-listing cadenas, an absent day as empty', () => {
    expect(
      cadenaConsulta({ empresa: 'TAMIZI', claveRastreo: 'CR1', tipoOrden: 'E', fechaOperacion: '20201229' }),
    ).toBe('||TAMIZI|CR1|E|20201229||');
    expect(cadenaConsulta({ empresa: 'TAMIZI', claveRastreo: 'CR1', tipoOrden: 'R' })).toBe(
      '||TAMIZI|CR1|R|||',
    );
    expect(cadenaConciliacion({ empresa: 'TAMIZI', tipoOrden: 'E', fechaOperacion: '20201229' })).toBe(
      '||TAMIZI|E|20201229||',
    );
  });

  it('signs with a fresh RSA key so that its public half verifies the firma', () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const key = loadSigningKey(privateKey, 'pw');
    const firma = sign('||ñandú|1.20||', key);
    expect(firma).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(
      verify(
        'sha256',
        Buffer.from('||ñandú|1.20||', 'utf8'),
        createPublicKey(key),
        Buffer.from(firma, 'base64'),
      ),
    ).toBe(true);
  });

  it('refuses a wrong passphrase or a broken PEM without repeating either', () => {
    for (const [pem, passphrase] of [
      [DEMO_KEY_PEM, 'wrong-passphrase-9f3'],
      ['-----BEGIN PRIVATE KEY-----\nbm90LWEta2V5\n-----END PRIVATE KEY-----\n', 'secret-passphrase-77'],
    ] as const) {
      let message = '';
      try {
        loadSigningKey(pem, passphrase);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/STP signing key does not load/);
      expect(message).not.toContain(passphrase);
      expect(message).not.toContain('MII');
      expect(message).not.toContain('bm90LWEta2V5');
    }
  });

  it('refuses a key that is not RSA', () => {
    const { privateKey } = generateKeyPairSync('ec', {
      namedCurve: 'prime256v1',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    expect(() => loadSigningKey(privateKey, '')).toThrow(/must be RSA/);
  });
});
