import type { StandInEnv } from "./env.ts";

/** ` nonce="…"` for a stand-in page's <style>, so the site's Content-Security-Policy lets it apply. */
export function styleNonceAttribute(env: Pick<StandInEnv, "styleNonce">): string {
  // A base64 nonce; anything else is dropped rather than escaped into the markup.
  return env.styleNonce && /^[A-Za-z0-9+/=]+$/.test(env.styleNonce) ? ` nonce="${env.styleNonce}"` : "";
}
