import { data, type RouterContextProvider } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { allows, type Operator, operatorOf, type Permission } from "#worker/services/admin/roles.ts";
import { getSessionUser } from "#worker/services/auth/sessions.ts";

export const ADMIN_FORBIDDEN = "Доступ запрещен";

// The layout's loader and the page's loader run side by side; they share one role lookup per request.
const lookups = new WeakMap<Request, Promise<Operator | null>>();

function lookUpOperator(context: Readonly<RouterContextProvider>, request: Request): Promise<Operator | null> {
  let lookup = lookups.get(request);
  if (!lookup) {
    const deps = context.get(depsContext);
    lookup = getSessionUser(deps, request).then((user) => (user ? operatorOf(deps, user) : null));
    lookups.set(request, lookup);
  }
  return lookup;
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
  const operator = await lookUpOperator(context, request);
  if (!operator) throw data(null, { status: 404 });
  if (!allows(operator, permission)) throw data(ADMIN_FORBIDDEN, { status: 403 });
  return operator;
}
