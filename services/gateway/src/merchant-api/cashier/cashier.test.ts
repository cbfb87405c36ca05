import { generateKeyPairSync } from 'node:crypto';
import type { PayOrder__Output } from '@agentpay/proto';
import { describe, expect, it } from 'vitest';
import { payBodyWithCashierUrl } from './cashier.routes.js';
import { pickLanguage } from './cashier-i18n.js';
import { cashierCsp, formatRemaining, renderCashierPage } from './cashier-page.js';
import { createAddressLimiter } from './cashier-rate-limit.js';
import { cashierSecret, createCashierTokens } from './cashier-token.js';
import {
  cashierView,
  formatPesos,
  groupClabe,
  plainPesos,
  safeHttpUrl,
  withOrderParams,
} from './cashier-view.js';

const order = (overrides: Partial<PayOrder__Output> = {}): PayOrder__Output =>
  ({
    order_no: 'P20261123000000000000042',
    biz_order_no: 'SHOP-42',
    mch_no: 'M1',
    title: 'Two coffees',
    amount: '123450',
    status: 'wait',
    expired_time: '2026-11-24T16:00:00.000Z',
    pay_body: JSON.stringify({
      clabe: '646180000000000025',
      bankCode: '90646',
      bankName: 'STP',
      beneficiaryName: 'AGENTPAY SANDBOX',
      amount: 1234.5,
      reference: '0000002',
    }),
    ...overrides,
  }) as PayOrder__Output;

describe('cashier tokens', () => {
  const tokens = createCashierTokens(Buffer.from('x'.repeat(32)));

  it('accepts the order’s own token and refuses another order’s, a changed one, a longer one and none', () => {
    const token = tokens.tokenFor('P1');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokens.verify('P1', token)).toBe(true);
    expect(tokens.verify('P2', token)).toBe(false);
    expect(tokens.verify('P1', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(tokens.verify('P1', `${token}A`)).toBe(false);
    expect(tokens.verify('P1', '')).toBe(false);
    expect(tokens.verify('P1', undefined)).toBe(false);
    expect(tokens.verify('P1', 'x'.repeat(10_000))).toBe(false);
  });

  it('derives one secret from one platform key, and another from another key; a configured secret wins', () => {
    const a = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const b = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    expect(cashierSecret(undefined, a)).toEqual(cashierSecret(undefined, a));
    expect(cashierSecret(undefined, a)).not.toEqual(cashierSecret(undefined, b));
    expect(cashierSecret('s'.repeat(32), a)).toEqual(Buffer.from('s'.repeat(32)));
    const fromA = createCashierTokens(cashierSecret(undefined, a));
    expect(createCashierTokens(cashierSecret(undefined, b)).verify('P1', fromA.tokenFor('P1'))).toBe(false);
  });
});

describe('the page’s language', () => {
  it('is ?lang= when known, else the best known Accept-Language choice, else Spanish', () => {
    expect(pickLanguage('en', 'es-MX')).toBe('en');
    expect(pickLanguage('fr', 'en-US,en;q=0.9')).toBe('en');
    expect(pickLanguage(undefined, 'fr-FR, en;q=0.5, es;q=0.8')).toBe('es');
    expect(pickLanguage(undefined, 'de, en;q=0.1')).toBe('en');
    expect(pickLanguage(undefined, 'en;q=0')).toBe('es');
    expect(pickLanguage(undefined, undefined)).toBe('es');
  });
});

describe('payer-facing values', () => {
  it('formats centavos exactly, far beyond what a float holds', () => {
    expect(formatPesos('123450')).toBe('1,234.50');
    expect(formatPesos('5')).toBe('0.05');
    expect(formatPesos('9223372036854775807')).toBe('92,233,720,368,547,758.07');
    expect(plainPesos('123450')).toBe('1234.50');
  });

  it('groups a CLABE as bank, branch and blocks of four', () => {
    expect(groupClabe('646180000000000025')).toBe('646 180 0000 0000 0025');
    expect(groupClabe('123')).toBe('123');
  });

  it('follows only http(s) URLs, and adds the order’s parameters keeping the merchant’s own', () => {
    expect(safeHttpUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeHttpUrl('data:text/html,x')).toBeUndefined();
    expect(safeHttpUrl('/relative')).toBeUndefined();
    expect(safeHttpUrl('')).toBeUndefined();
    const ids = { orderNo: 'P1', bizOrderNo: 'B 1&x', status: 'success' };
    expect(withOrderParams('https://shop.example/done?cart=9#top', ids)).toBe(
      'https://shop.example/done?cart=9&orderNo=P1&bizOrderNo=B+1%26x&status=success#top',
    );
    expect(withOrderParams('javascript:alert(1)//https://x', ids)).toBeUndefined();
  });

  it('shows the merchant’s registered name, never the payBody’s channel beneficiary', () => {
    const view = cashierView(order(), 'Tienda', {
      returnUrl: 'javascript:alert(1)',
      quitUrl: 'https://s.example/q',
    });
    expect(view).toMatchObject({ merchantName: 'Tienda', clabe: '646180000000000025', bankName: 'STP' });
    expect(JSON.stringify(view)).not.toContain('SANDBOX');
    expect(view.returnUrl).toBeUndefined();
    expect(view.quitUrl).toBe(
      'https://s.example/q?orderNo=P20261123000000000000042&bizOrderNo=SHOP-42&status=wait',
    );
  });

  it('adds cashierUrl to payBody and keeps payments’ fields as they were', () => {
    const body = payBodyWithCashierUrl(
      '{"clabe":"646180000000000025","amount":1234.5}',
      'http://h/cashier/P1?t=x',
    );
    expect(body).toBe(
      '{"clabe":"646180000000000025","amount":1234.5,"cashierUrl":"http://h/cashier/P1?t=x"}',
    );
  });

  it('counts down in days, hours, minutes and seconds, never below zero', () => {
    expect(formatRemaining(86_399_000, 'd')).toBe('23:59:59');
    expect(formatRemaining(90_061_000, 'd')).toBe('1 d 01:01:01');
    expect(formatRemaining(-5_000, 'd')).toBe('00:00:00');
  });
});

describe('the rendered page', () => {
  const render = (merchantName: string, status = 'wait') =>
    renderCashierPage({
      view: cashierView(order({ status }), merchantName, {
        returnUrl: 'https://s.example/r',
        quitUrl: 'https://s.example/q',
      }),
      lang: 'es',
      nonce: 'bm9uY2Vub25jZW5vbmNl',
      statusUrl: '/cashier/P/status?t=x',
      otherLanguageUrl: '/cashier/P?t=x&lang=en',
      timeZone: 'America/Mexico_City',
      now: Date.parse('2026-11-24T15:00:00.000Z'),
    });

  it('escapes what the merchant wrote, in the markup and in the data block', () => {
    const html = render('</script><script>alert(1)</script>');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('puts the nonce on every script and style and uses no inline style attribute', () => {
    const html = render('Tienda');
    const tags = html.match(/<(script|style)\b[^>]*>/g) ?? [];
    expect(tags.length).toBe(3);
    for (const tag of tags) expect(tag).toContain('nonce="bm9uY2Vub25jZW5vbmNl"');
    expect(html).not.toMatch(/\sstyle=/);
    expect(cashierCsp('abc')).toBe(
      "default-src 'none'; script-src 'nonce-abc'; style-src 'nonce-abc'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it('shows the time left and the deadline on the platform’s clock while open; once paid, only the way back', () => {
    const open = render('Tienda');
    expect(open).toContain('>01:00:00<');
    expect(open).toContain('datetime="2026-11-24T16:00:00.000Z"');
    const paid = render('Tienda', 'success');
    expect(paid).toMatch(/<section id="open-panel" hidden>/);
    expect(paid).toContain(
      'href="https://s.example/r?orderNo=P20261123000000000000042&amp;bizOrderNo=SHOP-42&amp;status=success"',
    );
    expect(paid).toMatch(/<a id="quit-link"[^>]* hidden>/);
  });
});

describe('the per-address limit', () => {
  it('refuses an address over its limit within a minute, not another address, and forgets at the next minute', () => {
    const limiter = createAddressLimiter(3);
    const t = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
    expect([1, 2, 3].map(() => limiter.limited('a', t))).toEqual([false, false, false]);
    expect(limiter.limited('a', t + 59_999)).toBe(true);
    expect(limiter.limited('b', t + 59_999)).toBe(false);
    expect(limiter.limited('a', t + 60_000)).toBe(false);
  });
});
