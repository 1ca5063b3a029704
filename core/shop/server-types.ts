/** Every server type the shop sells for, in the order the shop lists them. */
export const SERVER_TYPES = ["SOLO", "VANILLA", "MAX2", "MAX3", "NO_LIMIT"] as const;
export type ServerType = (typeof SERVER_TYPES)[number];

/** The type a page falls back to when none can be found. */
export const DEFAULT_SERVER_TYPE: ServerType = "SOLO";

/** The types a page offers: the known list; failing that, the types found in the items; failing that, SOLO. */
export function resolveServerTypes(fromApi: string[] | null, items: { server_type: string }[] | null): string[] {
  if (fromApi && fromApi.length > 0) return fromApi;
  const derived = [...new Set((items ?? []).map((item) => item.server_type))];
  return derived.length > 0 ? derived : [DEFAULT_SERVER_TYPE];
}
