import { parseAddress } from "../../integrations/yookassa/addresses.ts";

/**
 * The bucket a client's address counts in (issue 47): an IPv4 address itself (an IPv4-mapped IPv6 one
 * as IPv4), an IPv6 address by its /64, the network one subscriber gets, so rotating through it is one
 * address. Text that isn't an address stays as it is.
 */
export function addressBucket(address: string): string {
  const ip = parseAddress(address);
  if (!ip) return address;
  if (ip.bits === 32) return address.trim();
  if (ip.value >> 32n === 0xffffn) {
    const v4 = Number(ip.value & 0xffffffffn);
    return [24, 16, 8, 0].map((shift) => (v4 >>> shift) & 0xff).join(".");
  }
  const prefix = ip.value >> 64n;
  const groups = [48n, 32n, 16n, 0n].map((shift) => ((prefix >> shift) & 0xffffn).toString(16));
  return `${groups.join(":")}::/64`;
}
