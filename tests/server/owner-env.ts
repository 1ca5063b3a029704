// An owner's own-server `.env` in the checkout, as on a machine that also builds or develops the Worker
// (issue 45): the Worker's build and `npm run dev` must not read it.
import { existsSync, rmSync, writeFileSync } from "node:fs";

export const OWNER_PUBLIC_URL = "https://owner-own-server.example.ru";

const OWNER_ENV = [
  "APP_ENV=production",
  `PUBLIC_URL=${OWNER_PUBLIC_URL}`,
  "SESSION_SECRET=the-owner-s-own-server-session-secret-0123456789",
  "GAME_KEY_SECRET=the-owner-s-own-server-game-key-secret-0123456789",
  "DATABASE_URL=file:data/site.db",
  "",
].join("\n");

/** Puts OWNER_ENV at `.env` unless the checkout has one already; returns how to take it away again. */
export function ownerEnvInCheckout(): () => void {
  if (existsSync(".env")) return () => {};
  writeFileSync(".env", OWNER_ENV, { mode: 0o600 });
  return () => rmSync(".env", { force: true });
}
