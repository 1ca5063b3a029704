// Matching a notification's source address against YOOKASSA_TRUSTED_IPS
// (addresses and CIDR ranges, IPv4 and IPv6). YooKassa's published list
// (https://yookassa.ru/developers/using-api/webhooks#ip) is in the README;
// production sets the variable to it, so a change on YooKassa's side is a config edit.

type Parsed = { bits: 32 | 128; value: bigint };

function parseIPv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const byte = Number(part);
    if (byte > 255) return null;
    value = (value << 8n) | BigInt(byte);
  }
  return value;
}

function parseIPv6(text: string): bigint | null {
  let head = text;
  let tailV4: bigint | null = null;
  // An embedded IPv4 tail (::ffff:1.2.3.4) counts as the last two groups.
  const lastColon = text.lastIndexOf(":");
  if (text.includes(".") && lastColon >= 0) {
    tailV4 = parseIPv4(text.slice(lastColon + 1));
    if (tailV4 === null) return null;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (part: string | undefined) => (part ? part.split(":") : []);
  const left = groupsOf(halves[0]);
  const right = groupsOf(halves[1]);
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...right];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    value = (value << 16n) | BigInt(Number.parseInt(group, 16));
  }
  if (tailV4 !== null) value = (value & ~0xffffffffn) | tailV4;
  return value;
}

/** An IPv4 or IPv6 address as a number of 32 or 128 bits; null for text that is neither. */
export function parseAddress(text: string): Parsed | null {
  const trimmed = text.trim();
  if (trimmed.includes(":")) {
    const value = parseIPv6(trimmed);
    return value === null ? null : { bits: 128, value };
  }
  const value = parseIPv4(trimmed);
  return value === null ? null : { bits: 32, value };
}

/** Whether `address` lies in one of `ranges` ("1.2.3.0/24", "1.2.3.4", "2a02:5180::/32"). Bad input → false. */
export function addressInRanges(address: string | null | undefined, ranges: readonly string[]): boolean {
  if (!address) return false;
  const ip = parseAddress(address);
  if (!ip) return false;
  for (const range of ranges) {
    const [base, prefixText] = range.split("/");
    const network = base ? parseAddress(base) : null;
    if (!network || network.bits !== ip.bits) continue;
    const prefix = prefixText === undefined ? network.bits : Number(prefixText);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > network.bits) continue;
    const shift = BigInt(network.bits - prefix);
    if (ip.value >> shift === network.value >> shift) return true;
  }
  return false;
}
