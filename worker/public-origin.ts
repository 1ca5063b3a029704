import { type Config, standInsEnabled } from "./config.ts";

// A site on a real host is reached at PUBLIC_URL, whatever the request's own address says: behind a
// TLS-terminating proxy the Node server sees `http://` and the proxy's Host, and on Workers a
// workers.dev name may reach the same code. Everything after this point (the plugin's transport check,
// React Router's check of a forwarded action's Origin, links built from the request) reads the public
// origin from the request, so the rule is applied once, before any of them (decision 123).
//
// The one thing the runtime may still know is that the visitor came in plain text: the Worker's URL
// says so itself, and on Node only a proxy can tell, in X-Forwarded-Proto, read only when TRUST_PROXY
// says a proxy on this machine wrote it (worker/node/app.ts). A plain-text arrival keeps `http:`, so
// the plugin's HTTPS rule still refuses it and a form posted over it is checked against its own origin.

/** Did this request reach the site (or the proxy in front of it) in plain text? The Worker's own answer. */
export const plainTextByUrl = (request: Request) => new URL(request.url).protocol === "http:";

/** The request as the site should see it: at PUBLIC_URL's host, and at its scheme unless it came in plain text. */
export function atPublicOrigin(request: Request, config: Config, plainText: boolean): Request {
  if (standInsEnabled(config)) return request;
  const publicUrl = new URL(config.publicUrl);
  const url = new URL(request.url);
  const protocol = plainText ? "http:" : publicUrl.protocol;
  if (url.host === publicUrl.host && url.protocol === protocol) return request;
  return new Request(`${protocol}//${publicUrl.host}${url.pathname}${url.search}`, request);
}
