// Signing in to a built server through its local Steam stand-in, as a player clicking through it
// would (tests/support/steam-stand-in.ts); answers the session cookie. The bench signs in with it too.
import { walkStandIn } from "../support/steam-stand-in.ts";

export async function signInThroughStandIn(origin: string, steamId: string): Promise<string> {
  const callback = await walkStandIn(`${origin}/api/auth/steam?return_to=%2F`, steamId, (url, init) =>
    fetch(url, { redirect: "manual", ...init }),
  );
  const cookie = callback.headers.getSetCookie().find((value) => value.startsWith("__session="));
  if (!cookie) throw new Error(`sign-in: no session cookie (status ${callback.status})`);
  return cookie.split(";")[0] ?? cookie;
}
