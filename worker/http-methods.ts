/** A request that reads and never changes anything (RFC 9110 "safe" methods). */
export function isSafeMethod(method: string): boolean {
  return method === "GET" || method === "HEAD" || method === "OPTIONS";
}
