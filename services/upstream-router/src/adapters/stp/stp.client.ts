// The HTTP client of STP's API: signs each call, sends it, checks the answer against stp.protocol.ts and
// turns every way a call can fail into UpstreamUnavailableError, saying whether STP may have acted on it.
// It never logs, and no error it throws carries the key, its passphrase or a firma.

import type { KeyObject } from 'node:crypto';
import type { z } from 'zod';
import { UpstreamUnavailableError } from '../channel-adapter.js';
import { errorCode, mayHaveBeenSent } from '../transport-errors.js';
import {
  conciliacionAnswer,
  consultaAnswer,
  type RegistraAnswer,
  registraAnswer,
  type StpOrder,
} from './stp.protocol.js';
import { cadenaConciliacion, cadenaConsulta, cadenaRegistra, sign } from './stp.signing.js';
import { formatMonto, parseMonto } from './stp.text.js';

export interface StpClientOptions {
  /** e.g. `https://demo.stpmex.com:7024/speiws/rest` (registraOrden). */
  speiBase: string;
  /** e.g. `https://efws-dev.stpmex.com/efws/API` (consultaOrden, conciliacion). */
  efwsBase: string;
  empresa: string;
  key: KeyObject;
  /** Bound on each call, from sending to the end of the answer's body. */
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
}

export type TipoOrden = 'E' | 'R';

export interface StpClient {
  /** Adds `empresa` and `firma`; amounts are sent as JSON numbers of pesos, as STP's own samples do. */
  registraOrden(fields: Record<string, unknown>): Promise<RegistraAnswer>;
  /** The order, or undefined when STP has none with this claveRastreo (estado 6). */
  consultaOrden(query: {
    claveRastreo: string;
    tipoOrden: TipoOrden;
    fechaOperacion?: string | undefined;
  }): Promise<StpOrder | undefined>;
  /** Every order of one day and direction, page after page; throws if the pages do not add up. */
  conciliacion(query: {
    tipoOrden: TipoOrden;
    fechaOperacion: string;
    signal?: AbortSignal | undefined;
  }): AsyncGenerator<StpOrder>;
}

/** STP's `estado` for "no data": an unknown claveRastreo, a day without orders. */
const NOT_FOUND = 6;

const trimBase = (base: string) => base.replace(/\/+$/, '');

/** Amounts as JSON numbers with their two-decimal value (`"1.20"`, `1.2` → `1.2`); they are signed as `1.20`. */
function amount(field: string, value: unknown): number {
  const centavos = parseMonto(value);
  if (centavos === undefined) throw new RangeError(`${field} is not an amount with at most two decimals`);
  return Number(formatMonto(centavos));
}

export function createStpClient(options: StpClientOptions): StpClient {
  const doFetch = options.fetch ?? globalThis.fetch;
  const speiBase = trimBase(options.speiBase);
  const efwsBase = trimBase(options.efwsBase);
  const { empresa, key } = options;

  /**
   * One JSON call. Resolves with the HTTP status and the parsed body of any answer that is not a 5xx or a
   * refusal of our credentials (401/403); the caller judges the rest.
   */
  async function call(
    method: 'PUT' | 'POST',
    url: string,
    path: string,
    body: Record<string, unknown>,
    signal?: AbortSignal,
    /**
     * A payout: whatever went wrong once the request was sent (a 5xx, an unreadable answer) may have
     * followed STP creating the order, so it is ambiguous and the payout is never sent by another route.
     */
    actsOnSend = false,
  ): Promise<{ status: number; json: unknown }> {
    const what = `${method} ${path}`;
    // A timer cleared when the call ends rather than AbortSignal.timeout, which outlives the call.
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new DOMException('timed out', 'TimeoutError')),
      options.timeoutMs,
    );
    let status: number;
    let text: string;
    try {
      const response = await doFetch(url, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
      });
      status = response.status;
      text = await response.text();
    } catch (err) {
      const code = errorCode(err);
      throw new UpstreamUnavailableError(`STP ${what}: ${code ?? (err as Error).name}`, {
        ambiguous: mayHaveBeenSent(err),
        cause: err,
      });
    } finally {
      clearTimeout(timer);
    }
    // A proxy in front of STP answering 502/504 may have lost STP's answer after STP acted.
    if (status >= 500)
      throw new UpstreamUnavailableError(`STP ${what}: HTTP ${status}`, {
        ambiguous: actsOnSend || status === 502 || status === 504,
      });
    if (status === 401 || status === 403)
      throw new UpstreamUnavailableError(`STP ${what}: HTTP ${status}, STP refused the signature or address`);
    try {
      return { status, json: JSON.parse(text) };
    } catch {
      throw new UpstreamUnavailableError(`STP ${what}: HTTP ${status}, answer is not JSON`, {
        ambiguous: actsOnSend || (status >= 200 && status < 300),
      });
    }
  }

  function check<S extends z.ZodType>(what: string, schema: S, json: unknown, status: number): z.output<S> {
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`)
      .join('; ');
    throw new UpstreamUnavailableError(`STP ${what}: HTTP ${status}, unexpected answer (${issues})`, {
      ambiguous: status >= 200 && status < 300,
    });
  }

  async function registraOrden(fields: Record<string, unknown>): Promise<RegistraAnswer> {
    const order: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(fields)) {
      // Absent and null are both signed as empty; sending neither keeps STP's rebuilt cadena the same.
      if (value === undefined || value === null || field === 'firma') continue;
      order[field] = field === 'monto' || field === 'iva' ? amount(field, value) : value;
    }
    order['empresa'] = empresa;
    const firma = sign(cadenaRegistra(order), key);
    const path = '/ordenPago/registra';
    const { status, json } = await call(
      'PUT',
      `${speiBase}${path}`,
      path,
      { ...order, firma },
      undefined,
      true,
    );
    // STP answers every registraOrden, accepted or refused, with 200; anything else leaves it in doubt.
    if (status < 200 || status > 299)
      throw new UpstreamUnavailableError(`STP PUT ${path}: HTTP ${status}`, { ambiguous: true });
    return check(`PUT ${path}`, registraAnswer, json, status);
  }

  async function consultaOrden(query: {
    claveRastreo: string;
    tipoOrden: TipoOrden;
    fechaOperacion?: string | undefined;
  }): Promise<StpOrder | undefined> {
    const fields = { empresa, ...query };
    const firma = sign(cadenaConsulta(fields), key);
    const path = '/consultaOrden';
    const { status, json } = await call('POST', `${efwsBase}${path}`, path, { ...fields, firma });
    if (status !== 200 && status !== 400)
      throw new UpstreamUnavailableError(`STP POST ${path}: HTTP ${status}`);
    const answer = check(`POST ${path}`, consultaAnswer, json, status);
    if (answer.estado === NOT_FOUND) return undefined;
    if (status === 200 && answer.estado === 0 && answer.respuesta) return answer.respuesta;
    throw new UpstreamUnavailableError(
      `STP POST ${path}: HTTP ${status}, estado ${answer.estado} ${answer.mensaje}`.trimEnd(),
    );
  }

  async function* conciliacion(query: {
    tipoOrden: TipoOrden;
    fechaOperacion: string;
    signal?: AbortSignal | undefined;
  }): AsyncGenerator<StpOrder> {
    const fields = { empresa, tipoOrden: query.tipoOrden, fechaOperacion: query.fechaOperacion };
    const firma = sign(cadenaConciliacion(fields), key);
    const path = '/V2/conciliacion';
    const what = `POST ${path} ${query.tipoOrden} ${query.fechaOperacion}`;
    let expected: number | undefined;
    let read = 0;
    for (let page = 1; ; page++) {
      const { status, json } = await call(
        'POST',
        `${efwsBase}${path}`,
        path,
        { ...fields, page, firma },
        query.signal,
      );
      if (status !== 200 && status !== 400) throw new UpstreamUnavailableError(`STP ${what}: HTTP ${status}`);
      const answer = check(what, conciliacionAnswer, json, status);
      if (answer.estado === NOT_FOUND) {
        // A day with no orders. Anywhere else "no data" means the listing changed under us.
        if (page === 1 && (answer.total ?? 0) === 0) return;
        throw new UpstreamUnavailableError(`STP ${what}: page ${page} is empty after ${read} of ${expected}`);
      }
      if (status !== 200 || answer.estado !== 0 || answer.total === undefined)
        throw new UpstreamUnavailableError(
          `STP ${what}: HTTP ${status}, estado ${answer.estado} ${answer.mensaje}`.trimEnd(),
        );
      if (expected === undefined) expected = answer.total;
      else if (answer.total !== expected)
        throw new UpstreamUnavailableError(
          `STP ${what}: page ${page} counts ${answer.total} orders, page 1 counted ${expected}`,
        );
      if (expected === 0 && page === 1 && (answer.datos?.length ?? 0) === 0) return;
      const orders = answer.datos ?? [];
      // Each page must bring orders, and never more than the total: a listing in doubt is no statement.
      if (orders.length === 0 || read + orders.length > expected)
        throw new UpstreamUnavailableError(
          `STP ${what}: page ${page} has ${orders.length} orders after ${read} of ${expected}`,
        );
      read += orders.length;
      yield* orders;
      if (read === expected) return;
    }
  }

  return { registraOrden, consultaOrden, conciliacion };
}
