import { type Context, Hono } from "hono";
import { SIGN_IN_CODE_INVALID } from "#core/messages/auth.ts";
import { codeExchangeBodySchema } from "#core/schemas/auth.ts";
import type { AppEnv } from "../hono-env.ts";
import { logout } from "../services/auth/logout.ts";
import { publicProfile } from "../services/auth/profile.ts";
import { getSessionUser } from "../services/auth/sessions.ts";
import { exchangeSignInCode } from "../services/auth/sign-in-codes.ts";
import { completeSteamSignIn, type SignInStep, startSteamSignIn } from "../services/auth/steam-sign-in.ts";

// Sign-in with Steam and the session endpoints (check, profile, logout).
export const authApi = new Hono<AppEnv>();

/** Sign-in is a chain of full-page redirects; none of them may be cached or leak the address onwards. */
function redirectTo({ location, cookies }: SignInStep): Response {
  const headers = new Headers({ location, "cache-control": "no-store", "referrer-policy": "no-referrer" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: 302, headers });
}

// Full-page navigations: both names start the same Steam sign-in.
authApi.get("/auth/steam", async (c) => redirectTo(await startSteamSignIn(c.get("deps"), c.req.raw)));
authApi.get("/auth/login", async (c) => redirectTo(await startSteamSignIn(c.get("deps"), c.req.raw)));
authApi.get("/auth/steam/callback", async (c) => redirectTo(await completeSteamSignIn(c.get("deps"), c.req.raw)));

// /auth-success trades the callback's one-time code for the bearer token, which so never sits in an address.
authApi.post("/auth/exchange", async (c) => {
  c.header("cache-control", "no-store");
  const body = codeExchangeBodySchema.safeParse(await c.req.json().catch(() => null));
  const token = body.success ? await exchangeSignInCode(c.get("deps"), c.req.raw, body.data.code) : null;
  if (!token) return c.json({ error: SIGN_IN_CODE_INVALID }, 400);
  return c.json({ token });
});

authApi.get("/auth/check", async (c) => {
  const user = await getSessionUser(c.get("deps"), c.req.raw);
  c.header("cache-control", "no-store");
  return c.json({ authenticated: user !== null, user: user ? publicProfile(user) : null });
});

const signOut = async (c: Context<AppEnv>) => {
  c.header("set-cookie", await logout(c.get("deps"), c.req.raw));
  c.header("cache-control", "no-store");
  return c.json({ success: true });
};

authApi.post("/auth/logout", signOut);
authApi.post("/logout", signOut);
