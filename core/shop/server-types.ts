/** Every server type the shop sells for, in the order the shop lists them. */
export const SERVER_TYPES = ["SOLO", "VANILLA", "MAX2", "MAX3", "NO_LIMIT"] as const;
export type ServerType = (typeof SERVER_TYPES)[number];

/** Whether `value` names a type the shop sells; without zod, so the browser's code can ask it. */
export function isServerType(value: string): value is ServerType {
  return (SERVER_TYPES as readonly string[]).includes(value);
}

/** The type a page falls back to when none can be found. */
export const DEFAULT_SERVER_TYPE: ServerType = "SOLO";

/** The types a page offers: the known list; failing that, the types found in the items; failing that, SOLO. */
export function resolveServerTypes(fromApi: string[] | null, items: { server_type: string }[] | null): string[] {
  if (fromApi && fromApi.length > 0) return fromApi;
  const derived = [...new Set((items ?? []).map((item) => item.server_type))];
  return derived.length > 0 ? derived : [DEFAULT_SERVER_TYPE];
}

/** "1.2.3.4:28015": an IPv4 address whose parts are 0–255 and a port 1–65535, as players connect to a server. */
export function isIpPort(value: string): boolean {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5})$/.exec(value);
  if (!match) return false;
  const [octets, port] = [match.slice(1, 5).map(Number), Number(match[5])];
  return octets.every((octet) => octet <= 255) && port >= 1 && port <= 65_535;
}
