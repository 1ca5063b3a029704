import { standInsEnabled } from "./config.ts";
import { buildDeps, type Deps, type DepsOverrides, type Platform } from "./deps.ts";
import type { StandInEnv } from "./integrations/stand-ins/env.ts";
import { routeStandIns } from "./integrations/stand-ins/outbound.ts";
import type { KeyValueStore } from "./ports/key-value.ts";

/** Sends a request into the site itself (the payment stand-in's notifications). */
export type SiteFetch = (request: Request) => Response | Promise<Response>;

export function standInEnvOf(deps: Deps, notify: SiteFetch, paymentsKv: KeyValueStore = deps.kv): StandInEnv {
  return {
    db: deps.db,
    kv: deps.kv,
    paymentsKv,
    publicUrl: deps.config.publicUrl,
    steamOpenIdEndpoint: deps.config.steamOpenIdEndpoint,
    secret: deps.config.sessionSecret,
    notify,
  };
}

/**
 * The services' dependencies for one request or cron run. On a site on this machine the
 * outbound fetch answers the stand-ins' URLs in-process; elsewhere the stand-ins don't exist.
 */
export function wireDeps(platform: Platform, options: { overrides?: DepsOverrides; notify: SiteFetch }): Deps {
  const deps = buildDeps(platform, options.overrides);
  if (!standInsEnabled(deps.config)) return deps;
  return { ...deps, fetch: routeStandIns(deps.fetch, standInEnvOf(deps, options.notify, platform.standInKv)) };
}
