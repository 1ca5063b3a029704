// Operators and console requests for the admin tests: loaders and actions called as React Router would.
import { sql } from "drizzle-orm";
import { createRouterContext } from "#app/lib/deps-context.server.ts";
import { type OperatorRole, operators } from "#db/schema.ts";
import type { Deps } from "#worker/deps.ts";
import { createPlayer } from "./players.ts";
import { routerUrl } from "./routes.ts";

/** A signed-in player with a stored operator role. */
export async function createOperator(deps: Deps, role: OperatorRole, nickname = "Оператор") {
  const player = await createPlayer({ deps: deps, nickname });
  await deps.db.orm.insert(operators).values({ steamId: player.steamId, role });
  return player;
}

/** Loader/action arguments for a console address, signed in with `token` (or not). */
export function consoleArgs(
  deps: Deps,
  url: string,
  options: {
    token?: string;
    /** Fields; pairs when a name repeats (checkboxes). */
    form?: Record<string, string | number> | [string, string][];
    params?: Record<string, string>;
  } = {},
) {
  const headers = new Headers();
  if (options.token) headers.set("Cookie", `__session=${options.token}`);
  const body = options.form
    ? new URLSearchParams(
        Array.isArray(options.form)
          ? options.form
          : Object.entries(options.form).map(([key, value]) => [key, String(value)]),
      )
    : undefined;
  const full = new URL(url, "http://localhost");
  const request = new Request(full, { method: body ? "POST" : "GET", headers, body });
  const context = createRouterContext(deps);
  // biome-ignore lint/suspicious/noExplicitAny: each route has its own generated args type
  return { request, context, params: options.params ?? {}, url: routerUrl(full.href), pattern: full.pathname } as any;
}

/** The Response a loader or action threw (React Router's `data()` throws a DataWithResponseInit). */
export async function thrownStatus(promise: Promise<unknown>): Promise<{ status: number; data: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return { status: error.status, data: await error.text() };
    const init = (error as { init?: { status?: number }; data?: unknown }) ?? {};
    if (init.init?.status) return { status: init.init.status, data: init.data };
    throw error;
  }
  throw new Error("expected the loader or action to throw");
}

/** What an action returned: `data()` gives { data, init }; a success redirects back by GET (data: its Location). */
export function actionResult(value: unknown): { status: number; data: Record<string, unknown> } {
  if (value instanceof Response) return { status: value.status, data: { location: value.headers.get("Location") } };
  const result = value as { data?: Record<string, unknown>; init?: { status?: number } | null };
  return { status: result.init?.status ?? 200, data: result.data ?? (value as Record<string, unknown>) };
}

/** Journal rows about one target, oldest first. */
export async function auditRowsFor(deps: Deps, targetType: string, targetId: number | string) {
  return deps.db.orm.all<{
    action: string;
    operator_steam_id: string;
    operator_role: string;
    before: string | null;
    after: string | null;
    reason: string | null;
  }>(
    sql`SELECT action, operator_steam_id, operator_role, before, after, reason FROM audit_log
        WHERE target_type = ${targetType} AND target_id = ${String(targetId)} ORDER BY id`,
  );
}
