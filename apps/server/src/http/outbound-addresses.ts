import { isIP, isIPv4 } from 'node:net';

/**
 * Which IP addresses an outbound request (a webhook, a Web Push endpoint) must never reach: the
 * server's own host, the networks behind it, and addresses that are not one host. A user chooses
 * these URLs, so without this rule they could make the server call its database's admin page,
 * a cloud's metadata service (169.254.169.254) or a router.
 */

/** What an address is, when it is one an outbound request must not reach. */
export type ForbiddenKind =
  'unspecified' | 'loopback' | 'private' | 'link-local' | 'multicast' | 'shared' | 'reserved' | 'broadcast';

type Ipv4Range = readonly [first: number, prefix: number, kind: ForbiddenKind];

const octets = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

/** IANA's special-purpose IPv4 registry, the parts that are not the public internet. */
const FORBIDDEN_IPV4: readonly Ipv4Range[] = [
  [octets(0, 0, 0, 0), 8, 'unspecified'],
  [octets(10, 0, 0, 0), 8, 'private'],
  [octets(100, 64, 0, 0), 10, 'shared'],
  [octets(127, 0, 0, 0), 8, 'loopback'],
  [octets(169, 254, 0, 0), 16, 'link-local'],
  [octets(172, 16, 0, 0), 12, 'private'],
  [octets(192, 0, 0, 0), 24, 'reserved'],
  [octets(192, 0, 2, 0), 24, 'reserved'],
  [octets(192, 168, 0, 0), 16, 'private'],
  [octets(198, 18, 0, 0), 15, 'reserved'],
  [octets(198, 51, 100, 0), 24, 'reserved'],
  [octets(203, 0, 113, 0), 24, 'reserved'],
  [octets(224, 0, 0, 0), 4, 'multicast'],
  [octets(255, 255, 255, 255), 32, 'broadcast'],
  [octets(240, 0, 0, 0), 4, 'reserved'],
];

function parseIpv4(address: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number);
  return octets(a, b, c, d);
}

function ipv4Kind(value: number): ForbiddenKind | undefined {
  for (const [first, prefix, kind] of FORBIDDEN_IPV4) {
    const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === first) return kind;
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (a valid one: node's isIP said so). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const dotted = text.slice(lastColon + 1);
  if (dotted.includes('.')) {
    // A dotted IPv4 tail (::ffff:127.0.0.1) is the last two groups written another way.
    const value = parseIpv4(dotted);
    text = `${text.slice(0, lastColon + 1)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head = '', rest] = text.split('::');
  if (rest === undefined) return parse(head);
  const before = parse(head);
  const after = parse(rest);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const embeddedIpv4 = (high: number, low: number) => ((high << 16) | low) >>> 0;

function ipv6Kind(address: string): ForbiddenKind | undefined {
  const g = ipv6Groups(address);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const firstSixZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  if (firstSixZero && g6 === 0 && g7 === 0) return 'unspecified';
  if (firstSixZero && g6 === 0 && g7 === 1) return 'loopback';
  const carried = ipv4Kind(embeddedIpv4(g6, g7));
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible) reach the IPv4 address they carry.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0)) {
    return carried ?? (g5 === 0 ? 'reserved' : undefined);
  }
  // ::ffff:0:a.b.c.d (IPv4-translated, SIIT): a translator turns it into the IPv4 address it carries.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return carried;
  // An ISATAP interface identifier (…:0:5efe:a.b.c.d, …:200:5efe:a.b.c.d, under any /64) names the
  // IPv4 address of the tunnel's end: a private one is a host of the network behind the server.
  if ((g4 === 0 || g4 === 0x200) && g5 === 0x5efe && carried !== undefined) return carried;
  // 64:ff9b::/96, NAT64: a gateway turns it into the IPv4 address in its last 32 bits.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return carried;
  // 64:ff9b:1::/48: NAT64 for local use only.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'private';
  // 2002::/16, 6to4: the IPv4 address of the relay is in bits 16 to 48.
  if (g0 === 0x2002) return ipv4Kind(embeddedIpv4(g1, g2));
  // 2001::/32 (Teredo, an obfuscated IPv4 peer) and 2001:db8::/32 (documentation).
  if (g0 === 0x2001 && (g1 === 0 || g1 === 0xdb8)) return 'reserved';
  // 100::/64: discard.
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return 'reserved';
  if ((g0 & 0xfe00) === 0xfc00) return 'private';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  // fec0::/10: the old site-local addresses, private in effect.
  if ((g0 & 0xffc0) === 0xfec0) return 'private';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  return undefined;
}

/** What kind of address this is if no outbound request may reach it; undefined for a public address. */
export function forbiddenKind(address: string): ForbiddenKind | undefined {
  const version = isIP(address.split('%')[0]!);
  if (version === 0) return 'reserved';
  return isIPv4(address) ? ipv4Kind(parseIpv4(address)) : ipv6Kind(address);
}
