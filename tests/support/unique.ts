// Fresh values for rows and requests: D1 and KV are shared by every test file in
// a run, so names, codes and client addresses must not collide between tests.

let counter = 0;

/** A string no other call in this run returns: `prefix` + time + counter + a random tail. */
export function unique(prefix = ""): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter.toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** A random private IPv4 address, so per-address rate limits don't carry over between tests. */
export function uniqueIp(): string {
  const byte = () => Math.floor(Math.random() * 254) + 1;
  return `10.${byte()}.${byte()}.${byte()}`;
}

/** A random SteamID64 an individual account can have (7656119…, from Steam's first account up): a new player each time. */
export function uniqueSteamId(): string {
  return `76561198${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
}
