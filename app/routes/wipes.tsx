import { depsContext } from "#app/lib/deps-context.server.ts";
import { formatMoscowDate } from "#core/format/dates.ts";
import { serverTypeLabel } from "#core/format/server-type.ts";
import { moscowTimeText } from "#core/messages/common.ts";
import { WIPE_PAGE_TEXT, WIPE_TEXT } from "#core/messages/wipe.ts";
import {
  calendarHorizon,
  NO_SCHEDULE,
  parseWipeSchedule,
  scheduleText,
  wipeDate,
  wipePhrase,
  wipesUntil,
} from "#core/wipe/schedule.ts";
import { readServerStatus } from "#worker/services/server-status.ts";
import { SiteLink } from "../components/site-link.tsx";
import type { Route } from "./+types/wipes";

// /wipes: every server's next wipes in one calendar (decision 128), from the status document the
// server list reads (no database query), computed at the loader's clock so the page and its hydrated
// copy print the same.

export const meta: Route.MetaFunction = () => [
  { title: WIPE_PAGE_TEXT.metaTitle },
  { name: "description", content: WIPE_PAGE_TEXT.metaDescription },
];

export async function loader({ context }: Route.LoaderArgs) {
  const deps = context.get(depsContext);
  const status = await readServerStatus(deps);
  return {
    servers:
      status.state === "unavailable"
        ? null
        : status.servers.map((server) => ({
            name: server.name,
            serverType: server.server_type,
            // The last wipe the fair-play window counts from (issue 46), as the status cron put it.
            wipedAt: server.wiped_at ?? null,
            wipe: parseWipeSchedule(server.wipe) ?? NO_SCHEDULE,
          })),
    now: deps.now().getTime(),
  };
}

export default function Wipes({ loaderData }: Route.ComponentProps) {
  const { servers, now } = loaderData;
  // Every server's wipes to one date, a forced wipe, which every scheduled server shares (issue 46).
  const horizon = calendarHorizon(now);
  const upcoming = (servers ?? [])
    .flatMap((server) => wipesUntil(server.wipe, now, horizon).map((wipe) => ({ ...wipe, server })))
    .sort((a, b) => a.at - b.at || a.server.name.localeCompare(b.server.name, "ru"));
  return (
    <main className="container page wipes">
      <nav className="breadcrumbs" aria-label="Навигация">
        <SiteLink to="/">Главная</SiteLink> <span aria-hidden="true">/</span> <span>{WIPE_PAGE_TEXT.title}</span>
      </nav>
      <h1>{WIPE_PAGE_TEXT.title}</h1>
      <p>{WIPE_PAGE_TEXT.intro}</p>
      {servers === null ? (
        <p className="server-list__note server-list__note--error">{WIPE_PAGE_TEXT.failed}</p>
      ) : (
        <>
          <h2>{WIPE_PAGE_TEXT.upcoming}</h2>
          {upcoming.length === 0 ? (
            <p>{WIPE_PAGE_TEXT.none}</p>
          ) : (
            <>
              <p className="muted">{WIPE_PAGE_TEXT.upcomingUntil(moscowTimeText(wipeDate(horizon)))}</p>
              <table className="wipe-calendar" data-testid="wipe-calendar">
                <thead>
                  <tr>
                    <th scope="col">{WIPE_PAGE_TEXT.when}</th>
                    <th scope="col">{WIPE_PAGE_TEXT.server}</th>
                    <th scope="col">{WIPE_PAGE_TEXT.what}</th>
                  </tr>
                </thead>
                <tbody>
                  {upcoming.map((wipe) => (
                    <tr key={`${wipe.server.name}-${wipe.at}`} data-testid="wipe-row">
                      <td>
                        <time dateTime={new Date(wipe.at).toISOString()}>{wipeDate(wipe.at)}</time>
                      </td>
                      <td>{wipe.server.name}</td>
                      <td>{wipe.forced ? WIPE_TEXT.forced : WIPE_PAGE_TEXT.scheduled}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          <h2>{WIPE_PAGE_TEXT.schedules}</h2>
          <ul className="wipe-schedules">
            {servers.map((server) => {
              const phrase = wipePhrase(server.wipe, server.wipedAt, now);
              return (
                <li key={server.name} data-testid="wipe-schedule">
                  <strong>{server.name}</strong> <span className="muted">({serverTypeLabel(server.serverType)})</span>
                  <br />
                  {server.wipe.kind === "none" ? WIPE_PAGE_TEXT.noSchedule : scheduleText(server.wipe)}
                  {phrase ? <span className="wipe-schedules__phrase"> · {phrase}</span> : null}
                  {server.wipedAt != null ? (
                    <span className="muted">
                      {" "}
                      · {WIPE_PAGE_TEXT.lastWipe} {formatMoscowDate(server.wipedAt)}
                    </span>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </main>
  );
}
