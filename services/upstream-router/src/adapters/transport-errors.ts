// How a failed HTTP call to a channel ended, for every adapter's client: whether the request can have
// reached the channel (and so been acted on) or never left this host.

// Errors that mean the request never left this host, so the channel cannot have acted on it.
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The system or undici code of a failed call (its own, or its cause's), if it has one. */
export function errorCode(err: unknown): string | undefined {
  const own = (err as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  const cause = (err as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/** Whether a call that threw may have reached the channel: anything but a connection never made. */
export function mayHaveBeenSent(err: unknown): boolean {
  const code = errorCode(err);
  return code === undefined || !NOT_SENT.has(code);
}
