/** The visitor's address as Cloudflare reports it; requests without one share a single bucket. */
export function clientAddress(request: Request): string {
  return request.headers.get("cf-connecting-ip")?.trim() || "unknown";
}
