/**
 * Test support for process lifecycles, read from Linux's /proc: which processes descend from one, whether a
 * process is gone, and which addresses listen on a port.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A process as /proc shows it; `start` (clock ticks since boot) tells it from a later one with its pid. */
export interface Proc {
  pid: number;
  ppid: number;
  start: string;
  state: string;
  cmdline: string;
}

/** The process `pid` as /proc shows it now, if there is one. */
export function processInfo(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid: Number(fields[1]), start: fields[19]!, state: fields[0]!, cmdline };
  } catch {
    return undefined;
  }
}

/** Every running process that descends from `root` (children, grandchildren, …). */
export function descendants(root: number): Proc[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => processInfo(Number(name)))
    .filter((p): p is Proc => p !== undefined);
  const found: Proc[] = [];
  let parents = new Set([root]);
  while (parents.size > 0) {
    const next = all.filter((p) => parents.has(p.ppid));
    found.push(...next);
    parents = new Set(next.map((p) => p.pid));
  }
  return found;
}

/** True once the process has exited: no such pid, a zombie waiting for its parent, or another process. */
export function gone(proc: Proc): boolean {
  const now = processInfo(proc.pid);
  return now === undefined || now.state === 'Z' || now.start !== proc.start;
}

/** True when nothing listens on `port`, on any address (as a service binding it next would find it). */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** The local addresses listening on `port` over TCP (IPv4 and IPv6), e.g. `127.0.0.1` or `0.0.0.0`. */
export function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [hexAddress, hexPort] = local!.split(':');
      // 0A: LISTEN.
      if (state !== '0A' || Number.parseInt(hexPort!, 16) !== port) continue;
      found.push(address(hexAddress!));
    }
  }
  return found;
}

/** /proc/net/tcp writes an address as its 32-bit words in host (little-endian) order. */
function address(hex: string): string {
  const words = hex.match(/.{8}/g)!.map((w) => w.match(/../g)!.reverse().join(''));
  if (words.length === 1)
    return words[0]!
      .match(/../g)!
      .map((b) => Number.parseInt(b, 16))
      .join('.');
  const full = words.join('');
  if (/^0{24}/.test(full) && full.slice(24) === '00000000') return '::';
  if (full.startsWith('00000000000000000000ffff')) {
    return `::ffff:${full
      .slice(24)
      .match(/../g)!
      .map((b) => Number.parseInt(b, 16))
      .join('.')}`;
  }
  return full.match(/.{4}/g)!.join(':');
}
