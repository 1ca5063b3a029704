// The signed token that names a session (the cookie's value and the bearer token): its issuer, its
// lifetime and its signing, with no other import, so the browser tests' `signedIn` fixture
// (tests/e2e/signed-in.ts) signs a session exactly as sign-in does.
import { SignJWT } from "jose";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const TOKEN_ISSUER = "rust-servers-site";

/** The HMAC key of the session secret. */
export function sessionKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

/** The token of the session `id`, issued at `now` and expiring at `expiresAt` (epoch ms). */
export function signSessionToken(key: CryptoKey, id: string, now: number, expiresAt: number): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(id)
    .setIssuer(TOKEN_ISSUER)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(key);
}
