import { isIPv4, isIPv6 } from 'node:net';

// docs/merchant-api.md "Callbacks": in production a notifyUrl may not reach loopback, private or link-local
// addresses. The notifier sits inside the platform's network, so a callback to such an address would let
// a merchant probe or call internal services (or the cloud metadata endpoint) with the platform's reach.

interface Range4 {
  base: number;
  bits: number;
  reason: string;
}

const v4 = (cidr: string, reason: string): Range4 => {
  const [address, bits] = cidr.split('/') as [string, string];
  return { base: ipv4ToInt(address), bits: Number(bits), reason };
};

const FORBIDDEN_V4: Range4[] = [
  v4('169.254.169.254/32', 'link-local (cloud metadata)'),
  v4('0.0.0.0/8', 'unspecified ("this network")'),
  v4('10.0.0.0/8', 'private (RFC 1918)'),
  v4('100.64.0.0/10', 'shared address space (CGNAT)'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private (RFC 1918)'),
  v4('192.0.0.0/24', 'IETF protocol assignments'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.168.0.0/16', 'private (RFC 1918)'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

function ipv4ToInt(address: string): number {
  return address.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

function v4Reason(address: string): string | undefined {
  const value = ipv4ToInt(address);
  for (const range of FORBIDDEN_V4) {
    const size = 2 ** (32 - range.bits);
    if (value >= range.base && value < range.base + size) return range.reason;
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (with `::` and a dotted IPv4 tail expanded). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = ipv4ToInt(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => Number.parseInt(g, 16));
}

function embeddedV4(groups: number[]): string {
  const hi = groups[6]!;
  const lo = groups[7]!;
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

function v6Reason(address: string): string | undefined {
  const g = ipv6Groups(address);
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && g[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) reach the
  // IPv4 address inside them, so they are judged by it.
  if (zeroUpTo(5) && (g[5] === 0xffff || g[5] === 0)) return v4Reason(embeddedV4(g));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return v4Reason(embeddedV4(g));
  }
  // 6to4 (2002:AABB:CCDD::) carries the IPv4 address in groups 1 and 2.
  if (g[0] === 0x2002) {
    const reason = v4Reason(`${g[1]! >> 8}.${g[1]! & 0xff}.${g[2]! >> 8}.${g[2]! & 0xff}`);
    if (reason) return `${reason} (6to4)`;
  }
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'unique local (fc00::/7)';
  if ((first & 0xffc0) === 0xfe80) return 'link-local (fe80::/10)';
  if ((first & 0xffc0) === 0xfec0) return 'site-local (deprecated)';
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if (first === 0x2001 && g[1] === 0x0db8) return 'documentation';
  if (first === 0x0100 && zeroUpTo(4)) return 'discard-only';
  return undefined;
}

/** Why a callback may not go to this IP address in production, or undefined when it may. */
export function forbiddenAddressReason(address: string): string | undefined {
  if (isIPv4(address)) return v4Reason(address);
  if (isIPv6(address)) return v6Reason(address);
  return 'not an IP address';
}
