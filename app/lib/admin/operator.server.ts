import { data, type RouterContextProvider } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import type { PageArgs } from "#app/lib/page-request.server.ts";
import { oncePer } from "#core/once-per.ts";
import type { Deps } from "#worker/deps.ts";
import { isSafeMethod } from "#worker/http-methods.ts";
import {
  allows,
  type Operator,
  operatorOf,
  type Permission,
  sessionStoredRoleRead,
  toOperator,
} from "#worker/services/admin/roles.ts";
import { type SummaryStateRow, summaryStateRead } from "#worker/services/admin/summary.ts";
import { getSessionUser, getSessionUserWith } from "#worker/services/auth/sessions.ts";

export const ADMIN_FORBIDDEN = "Доступ запрещен";

interface ConsoleLookup {
  operator: Operator | null;
  /** The summary's state, read in the same batch when the request is the summary page (/admin). */
  summaryState: SummaryStateRow[] | null;
}

// The layout's loader and the page's loader run side by side; they share one lookup per request.
const lookups = new WeakMap<Request, Promise<ConsoleLookup>>();

/** A read of /admin itself (the summary), as a document or as a client navigation's data. */
function isSummaryPage({ request, url }: PageArgs): boolean {
  return isSafeMethod(request.method) && url.pathname === "/admin";
}

/**
 * The session, the operator's stored role and, on the summary page, the summary's state: one
 * database round trip (decision 115). The layout's loader starts it, so the page's own reads ride
 * along by the request's path, as /profile's Корзина does (decision 112).
 */
async function readConsole(
  deps: Pick<Deps, "db" | "config" | "now">,
  request: Request,
  summary: boolean,
): Promise<ConsoleLookup> {
  if (!isSafeMethod(request.method)) {
    const user = await getSessionUser(deps, request);
    return { operator: user ? await operatorOf(deps, user) : null, summaryState: null };
  }
  const { user, reads } = await getSessionUserWith(deps, request, (key) =>
    summary ? ([sessionStoredRoleRead(key), summaryStateRead()] as const) : ([sessionStoredRoleRead(key)] as const),
  );
  if (!user || !reads) return { operator: null, summaryState: null };
  const operator = toOperator(deps, user, reads[0]);
  return { operator, summaryState: operator && reads.length > 1 ? (reads[1] as SummaryStateRow[]) : null };
}

/** The request's one lookup; the first caller says whether the summary's state rides along. */
function lookUpConsole(
  context: Readonly<RouterContextProvider>,
  request: Request,
  summary = false,
): Promise<ConsoleLookup> {
  return oncePer(lookups, request, (asked) => readConsole(context.get(depsContext), asked, summary));
}

/**
 * Starts the console's lookup before any loader runs (the console layout's middleware). Loaders run
 * side by side, and the root's would otherwise look the session up on its own first: two round trips
 * instead of decision 115's one. Started here, the root's loader shares the session this batch reads.
 */
export async function readConsoleFirst(args: PageArgs): Promise<void> {
  await lookUpConsole(args.context, args.request, isSummaryPage(args));
}

/**
 * The operator behind a console request, checked on the server for every loader and action.
 * Anyone without a role — signed in or not — gets the site's ordinary 404, so the console's
 * address tells a stranger nothing; an operator whose role lacks `permission` gets 403.
 */
export async function requireOperator(
  context: Readonly<RouterContextProvider>,
  request: Request,
  permission: Permission,
): Promise<Operator> {
  const { operator } = await lookUpConsole(context, request);
  if (!operator) throw data(null, { status: 404 });
  if (!allows(operator, permission)) throw data(ADMIN_FORBIDDEN, { status: 403 });
  return operator;
}

/** `requireOperator` for the summary page, with the summary's state when it came in the operator's batch. */
export async function requireOperatorForSummary(args: PageArgs) {
  const { summaryState } = await lookUpConsole(args.context, args.request, isSummaryPage(args));
  const operator = await requireOperator(args.context, args.request, "console");
  return { operator, summaryState };
}
