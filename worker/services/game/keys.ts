// Per-server plugin keys (docs/decisions/060-game-server-request-signing.md, 103). Both sides
// sign with HMAC key = SHA-256(key string). The key itself is derived from GAME_KEY_SECRET, which
// the database never holds, the server's id and a random salt the database keeps:
//   key = "rsk_" + base64url(HMAC-SHA256(GAME_KEY_SECRET, `server-key:${id}:${salt}`))
// so a copy of the database alone can't sign. A new salt is a new key (rotation). Servers from
// before decision 103 have a random key whose SHA-256 is stored in key_hash: they keep working
// until rotated, and are flagged as needing it.

const encoder = new TextEncoder();

export function bytesToHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let hex = "";
  for (const byte of view) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** Null unless `hex` is an even-length lowercase or uppercase hex string. */
export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** SHA-256 hex of the key as the operator typed it into the plugin config. */
export async function hashServerKey(key: string): Promise<string> {
  return bytesToHex(await crypto.subtle.digest("SHA-256", encoder.encode(key)));
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** A new random salt (16 bytes, base64url): the per-server part of a derived key, stored in `servers.key_salt`. */
export function generateKeySalt(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * The plugin key of server `serverId` with salt `salt`, as shown to the owner:
 * "rsk_" + base64url(HMAC-SHA256(secret, `server-key:${serverId}:${salt}`)). WebCrypto only, so
 * Node tests and scripts use it as the Worker does.
 */
export async function deriveServerKey(secret: string, serverId: number, salt: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`server-key:${serverId}:${salt}`));
  return `rsk_${base64url(new Uint8Array(mac))}`;
}

/** The HMAC key both sides derive from a stored hash (32 raw bytes). */
export async function importSigningKey(keyHashHex: string): Promise<CryptoKey | null> {
  const raw = hexToBytes(keyHashHex);
  if (raw?.length !== 32) return null;
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

export async function hmacHex(key: CryptoKey, message: string): Promise<string> {
  return bytesToHex(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}
