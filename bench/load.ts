import http from 'node:http';

// A small load generator for loopback benchmarks. Requests are prepared (signed) before the clock
// starts, so the generator's own CPU goes to sending, not to RSA.

export interface Prepared {
  path: string;
  body: string;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  throughput: number;
  p50: number;
  p99: number;
  max: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function summarize(latencies: number[], errors: number, seconds: number): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    seconds,
    throughput: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

function post(
  agent: http.Agent,
  base: URL,
  request: Prepared,
  check: (status: number, body: string) => boolean,
): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path: request.path,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(request.body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(check(res.statusCode ?? 0, Buffer.concat(chunks).toString())));
      },
    );
    req.on('error', () => resolve(false));
    req.end(request.body);
  });
}

/** An envelope check: HTTP 200 and code 0. */
export const ok = (status: number, body: string) => status === 200 && body.includes('"code":0,');

/** Closed loop: `concurrency` workers each send their next request as soon as the previous answers. */
export async function closedLoop(
  baseUrl: string,
  requests: Prepared[],
  concurrency: number,
  check: (status: number, body: string) => boolean = ok,
): Promise<LoadResult> {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length) {
        const request = requests[next++]!;
        const t0 = performance.now();
        if (await post(agent, base, request, check)) latencies.push(performance.now() - t0);
        else errors += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return summarize(latencies, errors, seconds);
}

/** Open loop: sends at a fixed rate whatever the answers, so latency is not hidden by back-pressure. */
export async function openLoop(
  baseUrl: string,
  requests: Prepared[],
  ratePerSecond: number,
  check: (status: number, body: string) => boolean = ok,
): Promise<LoadResult> {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < requests.length; i++) {
    const due = started + (i * 1000) / ratePerSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    inflight.push(
      post(agent, base, requests[i]!, check).then((good) => {
        if (good) latencies.push(performance.now() - t0);
        else errors += 1;
      }),
    );
  }
  await Promise.all(inflight);
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return summarize(latencies, errors, seconds);
}

/** Peak resident memory (VmHWM) of a process, MB; NaN when unreadable. */
export async function peakRssMb(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system, ms) used so far by each process of interest, by pid, with its group name. */
export type CpuSnapshot = Map<string, { name: string; ms: number }>;

/**
 * A snapshot of the CPU used so far by the given pids (by name) and by every `postgres` and `nats-server`
 * process on the machine (Linux /proc).
 */
export async function cpuSnapshot(named: Record<string, number>): Promise<CpuSnapshot> {
  const { readdir, readFile } = await import('node:fs/promises');
  const ticksPerMs = 100 / 1000; // USER_HZ is 100 on Linux
  const byPid = new Map(Object.entries(named).map(([name, pid]) => [String(pid), name]));
  const out: CpuSnapshot = new Map();
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const name =
        byPid.get(pid) ?? (comm === 'postgres' ? 'postgres' : comm === 'nats-server' ? 'nats' : '');
      if (!name) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, { name, ms: (Number(fields[11]) + Number(fields[12])) / ticksPerMs });
    } catch {
      // the process ended between the listing and the read
    }
  }
  return out;
}

/**
 * CPU used between two snapshots, by group: each process's own difference, a process that started in
 * between counted whole. (Summing groups instead would count a Postgres backend that closed in between as
 * negative CPU: pools close idle connections.) A process that ended in between is lost; it is idle anyway.
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): Map<string, number> {
  const out = new Map<string, number>();
  for (const [pid, { name, ms }] of after)
    out.set(name, (out.get(name) ?? 0) + ms - (before.get(pid)?.ms ?? 0));
  return out;
}
