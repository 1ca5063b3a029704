// What React Router runs for an address, read from the route config (app/routes.ts) rather than
// written out by hand: the matched branch from root.tsx through every layout to the page, each
// route's middleware in that order, and every matched loader. A layout added to routes.ts is in the
// chain the day it is added (the query-plan guard and the rows bench run pages through this).

import type { RouteConfigEntry } from "@react-router/dev/routes";
import { type MiddlewareFunction, matchRoutes, type Params, type RouteObject } from "react-router";
import routes from "#app/routes.ts";

type RouteFunction = (...args: never[]) => unknown;

interface RouteModule {
  middleware?: MiddlewareFunction[];
  loader?: RouteFunction;
}

// Every route module, by its file as routes.ts names it (relative to app/).
const modules = new Map(
  Object.entries(import.meta.glob<RouteModule>(["../../app/root.tsx", "../../app/routes/*.tsx"], { eager: true })).map(
    ([path, module]) => [path.replace("../../app/", ""), module],
  ),
);

/** The root route React Router's framework mode puts above routes.ts, as root.tsx. */
const ROOT_FILE = "root.tsx";

// React Router's own route objects, each carrying its module's file as its id (ids in routes.ts are unused).
const routeObject = (entry: RouteConfigEntry): RouteObject =>
  entry.index
    ? { id: entry.file, index: true, caseSensitive: entry.caseSensitive }
    : {
        id: entry.file,
        path: entry.path,
        caseSensitive: entry.caseSensitive,
        children: entry.children?.map(routeObject),
      };

const tree: RouteObject[] = [{ id: ROOT_FILE, children: routes.map(routeObject) }];

export interface RouteChain {
  /** The matched route modules' files, root first. */
  files: string[];
  /** Every matched route's middleware, root's first, as React Router runs them. */
  middleware: MiddlewareFunction[];
  /** Every matched route's loader (run at once once the middleware has called next). */
  loaders: RouteFunction[];
  params: Params;
  /** The matched route's pattern, as a loader's `pattern` has it ("/shop/items/:id"). */
  pattern: string;
}

/** The chain React Router runs for `pathname` (a path without the query), as app/routes.ts nests it. */
export function routeChain(pathname: string): RouteChain {
  const matches = matchRoutes(tree, pathname);
  if (!matches) throw new Error(`no route in app/routes.ts matches ${pathname}`);
  const files = matches.map((match) => match.route.id as string);
  const found = files.map((file) => {
    const module = modules.get(file);
    if (!module) throw new Error(`app/routes.ts names ${file}, which is not in app/ as a route module`);
    return module;
  });
  return {
    files,
    middleware: found.flatMap((module) => module.middleware ?? []),
    loaders: found.flatMap((module) => (module.loader ? [module.loader] : [])),
    params: matches.at(-1)?.params ?? {},
    pattern: `/${matches.flatMap((match) => (match.route.path ? [match.route.path] : [])).join("/")}`,
  };
}
