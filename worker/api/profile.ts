import { Hono } from "hono";
import type { AppEnv } from "../hono-env.ts";
import { publicProfile } from "../services/auth/profile.ts";
import { requireUser } from "./require-user.ts";

// The caller's own profile: there is no way to name another player here.
export const profileApi = new Hono<AppEnv>();

profileApi.get("/profile", requireUser, (c) => {
  c.header("cache-control", "no-store");
  return c.json(publicProfile(c.get("user")));
});
