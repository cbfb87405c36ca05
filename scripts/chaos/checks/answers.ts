import type { ServiceName } from '@agentpay/stack';
import type { CheckInput } from './input.js';

/** Every request got a signed envelope with a documented status; connection errors only while the target was down. */
export function checkAnswers(input: CheckInput): string[] {
  const out: string[] = [];
  const downWindows = (service: ServiceName) =>
    input.faults.filter((f) => f.service === service).map((f) => [f.from - 50, f.to + 1_000] as const);
  const within = (t: number, windows: readonly (readonly [number, number])[]) =>
    windows.some(([a, b]) => t >= a && t <= b);
  const gatewayDown = downWindows('gateway');
  const sandboxDown = downWindows('upstream-sandbox');
  const DOCUMENTED = new Set([200, 429, 500, 503]);
  for (const r of input.requests) {
    const label = `${r.target} ${r.path} at +${r.startedAt}`;
    switch (r.outcome) {
      case 'timeout':
        out.push(`${label}: no answer within ${input.options.requestTimeoutMs} ms (hung)`);
        break;
      case 'not-json':
        out.push(`${label}: HTTP ${r.status} without a JSON envelope`);
        break;
      case 'unsigned':
        out.push(`${label}: HTTP ${r.status} envelope ${r.code} whose signature does not verify`);
        break;
      case 'connection':
        if (!within(r.endedAt, r.target === 'gateway' ? gatewayDown : sandboxDown))
          out.push(`${label}: connection failed while its server was up (${r.error})`);
        break;
      case 'envelope':
        if (r.target === 'gateway' && !DOCUMENTED.has(r.status ?? 0))
          out.push(`${label}: undocumented HTTP status ${r.status} (code ${r.code})`);
        // An outage is a dependency down: 503 / 50003. A 500 is a bug whatever the moment.
        if (r.target === 'gateway' && r.status === 500) out.push(`${label}: HTTP 500 (code ${r.code})`);
        break;
    }
  }
  return out;
}
