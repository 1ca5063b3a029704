// Signing in to a built server through its local Steam stand-in, as a player clicking through it
// would; answers the session cookie. The bench signs in with it too.

export async function signInThroughStandIn(origin: string, steamId: string): Promise<string> {
  const location = (response: Response) => {
    const value = response.headers.get("location");
    if (!value) throw new Error(`sign-in: expected a redirect, got ${response.status}`);
    return new URL(value, origin);
  };
  const start = await fetch(`${origin}/api/auth/steam?return_to=%2F`, { redirect: "manual" });
  // The sign-in state cookie must come back with the callback, as a browser would send it.
  const stateCookie = start.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  const login = location(start);
  const approve = await fetch(new URL("approve", login), {
    method: "POST",
    body: new URLSearchParams({
      return_to: login.searchParams.get("openid.return_to") ?? "",
      realm: login.searchParams.get("openid.realm") ?? "",
      steamid: steamId,
    }),
    redirect: "manual",
  });
  const callback = await fetch(location(approve), { redirect: "manual", headers: { cookie: stateCookie } });
  const cookie = callback.headers.getSetCookie().find((value) => value.startsWith("__session="));
  if (!cookie) throw new Error(`sign-in: no session cookie (status ${callback.status})`);
  return cookie.split(";")[0] ?? cookie;
}
