// Per-server plugin keys. The key is shown once to the operator; the database keeps
// only its SHA-256, and that hash is also the HMAC key both sides sign with
// (docs/decisions/060-game-server-request-signing.md).

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

/** A new random key: 32 bytes, base64url, with a recognisable prefix. */
export function generateServerKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `rsk_${base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`;
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
