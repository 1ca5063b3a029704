// The Node server itself only speaks plain HTTP, so its own URL can't say how the visitor came: the
// TLS proxy in front of it can, in X-Forwarded-Proto, which counts only when TRUST_PROXY=1 says a
// proxy on this machine wrote it (Caddy replaces a client's own value; the last entry is the proxy's).
// Unsaid, the visitor came the way PUBLIC_URL says (worker/public-origin.ts).

export function plainTextByProxy(trustProxy: boolean): (request: Request) => boolean {
  if (!trustProxy) return () => false;
  return (request) => request.headers.get("x-forwarded-proto")?.split(",").at(-1)?.trim().toLowerCase() === "http";
}
