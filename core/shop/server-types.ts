/** Every server type the shop sells for, in the order the shop lists them. */
export const SERVER_TYPES = ["SOLO", "VANILLA", "MAX2", "MAX3", "NO_LIMIT"] as const;
export type ServerType = (typeof SERVER_TYPES)[number];

/** The type a page falls back to when none can be found. */
export const DEFAULT_SERVER_TYPE: ServerType = "SOLO";
