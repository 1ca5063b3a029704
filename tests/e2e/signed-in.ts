// The `signedIn` fixture: a player signed in without walking the Steam stand-in, for the browser tests
// whose subject is not sign-in (those keep `signIn`/`signInAt` from browser.ts). It writes what the
// site's own sign-in writes after Steam's answer (steam-sign-in.ts: the player's row as a first sign-in
// without a Steam API key makes it, and a session row) into the running site's database, signs the token
// with the site's own `signSessionToken`, and sets the session cookie on the browser context as the
// callback's `Set-Cookie` would. A browser without the walk has no stored bearer token (`jwt_token`):
// the cookie alone signs it in, as for a player whose storage is refused.
import { randomUUID } from "node:crypto";
import { type Client, createClient } from "@libsql/client";
import type { BrowserContext, Page } from "playwright-core";
import { loadConfig } from "../../worker/config.ts";
import { sessionCookieName } from "../../worker/services/auth/cookie-names.ts";
import { SESSION_TTL_MS, sessionKey, signSessionToken } from "../../worker/services/auth/session-token.ts";
import { uniqueSteamId } from "../support/unique.ts";
import { E2E_ORIGIN } from "./site.ts";

/** The site's settings as the e2e builds have them: local, so the fixed local session secret. */
const config = loadConfig({
  APP_ENV: "development",
  PUBLIC_URL: E2E_ORIGIN,
  DISCORD_URL: "https://discord.com",
  STEAM_WEBAPI_BASE: `${E2E_ORIGIN}/__standins/steam-webapi`,
  STEAM_OPENID_ENDPOINT: `${E2E_ORIGIN}/__standins/steam-openid/login`,
  PAYMENT_PROVIDER: "standin",
  YOOKASSA_API_BASE: "",
});

/** worker/integrations/steam/profile.ts's DEFAULT_AVATAR_URL: a first sign-in without Steam's profile. */
const DEFAULT_AVATAR_URL = "/images/avatar-default.svg";

let client: Client | null = null;

/**
 * The running site's database: E2E_DATABASE_URL, which tests/e2e/run.ts (local D1's SQLite file) and
 * run-node.ts (the Node server's libSQL file) set for the test files.
 */
function siteDatabase(): Client {
  if (client) return client;
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error("E2E_DATABASE_URL is not set: run the browser tests with tests/e2e/run.ts or run-node.ts");
  // No journal-mode setting: the file stays as the site keeps it. Wait for the site's write lock.
  client = createClient({ url, intMode: "number", concurrency: 1, timeout: 10_000 });
  return client;
}

export interface SignedInPlayer {
  steamId: string;
  userId: number;
  /** The session's signed token: the cookie's value, and a bearer token for /api. */
  token: string;
}

/**
 * Signs `context` in as `steamId` (a new player unless given): the player's row (its nickname and avatar
 * from the Steam stand-in, as at a real sign-in), a session row, and the session cookie. Pages opened in
 * the context afterwards are signed in.
 */
export async function signedIn(context: BrowserContext, steamId = uniqueSteamId()): Promise<SignedInPlayer> {
  const db = siteDatabase();
  const now = Date.now();
  // upsertSteamUser: a new player with balance 0 named by the SteamID; a known one keeps its row.
  const [user] = (
    await db.execute({
      sql: `INSERT INTO users (steam_id, nickname, avatar_url, balance) VALUES (?, ?, ?, 0)
        ON CONFLICT (steam_id) DO UPDATE SET updated_at = ? RETURNING id`,
      args: [steamId, steamId, DEFAULT_AVATAR_URL, now],
    })
  ).rows;
  const userId = Number(user?.id);
  // createSession: the row, and the token that names it.
  const id = randomUUID();
  const expiresAt = now + SESSION_TTL_MS;
  await db.execute({
    sql: "INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
    args: [id, userId, now, expiresAt],
  });
  const token = await signSessionToken(await sessionKey(config.sessionSecret), id, now, expiresAt);
  // sessionCookie: HttpOnly, SameSite=Lax, Path=/, not Secure on plain-http localhost.
  await context.addCookies([
    {
      name: sessionCookieName(config),
      value: token,
      url: E2E_ORIGIN,
      httpOnly: true,
      sameSite: "Lax",
      secure: false,
      expires: Math.floor(expiresAt / 1000),
    },
  ]);
  return { steamId, userId, token };
}

/** `signInAt` without the walk: signs the page's context in as `steamId` (a new player unless given) and opens `path`. */
export async function signedInAt(page: Page, path: string, steamId = uniqueSteamId()): Promise<SignedInPlayer> {
  const player = await signedIn(page.context(), steamId);
  await page.goto(path);
  return player;
}

/** Rows a browser test needs that no page of the site makes quickly (a long history), written into the running site's database. */
export async function siteExecute(sql: string, args: (string | number | null)[] = []): Promise<void> {
  await siteDatabase().execute({ sql, args });
}
