import { createMiddleware } from "hono/factory";
import { AUTH_REQUIRED } from "#core/messages/common.ts";
import type { AppEnv } from "../hono-env.ts";
import { getSessionUser, type SessionUser } from "../services/auth/sessions.ts";

type WithUser = AppEnv & { Variables: AppEnv["Variables"] & { user: SessionUser } };

/** 401 «Необходима авторизация» unless the request carries a live session (bearer token or cookie). */
export const requireUser = createMiddleware<WithUser>(async (c, next) => {
  const user = await getSessionUser(c.get("deps"), c.req.raw);
  if (!user) return c.json({ error: AUTH_REQUIRED }, 401);
  c.set("user", user);
  await next();
});
