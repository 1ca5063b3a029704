// A profile page's request as React Router runs it in these tests: the layout's middleware (which reads
// the session, and for /profile the Корзина with it), then the args a tab's loader gets.
import type { RouterContextProvider } from "react-router";
import { createRouterContext } from "#app/lib/deps-context.server.ts";
import type { Deps } from "#worker/deps.ts";
import { middleware } from "../../app/routes/profile.tsx";
import { sessionCookie } from "./sign-in.ts";
import { uniqueIp } from "./unique.ts";

export async function profilePageArgs(
  deps: Deps,
  url: string,
  options: { token?: string; method?: string; form?: Record<string, string> } = {},
) {
  const headers = new Headers({ "CF-Connecting-IP": uniqueIp() });
  if (options.token) headers.set("Cookie", sessionCookie(options.token).cookie);
  const body = options.form ? new URLSearchParams(options.form) : undefined;
  const request = new Request(url, { method: options.method ?? (body ? "POST" : "GET"), headers, body });
  const context: RouterContextProvider = createRouterContext(deps);
  const args = { request, context, params: {}, url: new URL(url), pattern: new URL(url).pathname };
  const [run] = middleware;
  if (!run) throw new Error("no middleware");
  await run(args as never, async () => new Response(null));
  // biome-ignore lint/suspicious/noExplicitAny: each loader has its own generated args type
  return args as any;
}
