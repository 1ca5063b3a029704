import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

// The site reads the client's address from CF-Connecting-IP (promo rate limits per address, the
// payment provider's trusted addresses), which Cloudflare sets and nobody else can. On Node any client
// could send that header, so it is always replaced: by the connection's address, or, behind a proxy
// on this machine (TRUST_PROXY=1), by the address that proxy appended last to X-Forwarded-For.

export const CLIENT_ADDRESS_HEADER = "cf-connecting-ip";

export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? "";
  } catch {
    return ""; // called in-process (tests), without a socket
  }
}

/** The request as the site should see it: with our own idea of the client's address. */
export function withClientAddress(request: Request, address: string): Request {
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_ADDRESS_HEADER);
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
  return new Request(request, { headers });
}
