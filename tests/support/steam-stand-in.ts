// A browser's whole Steam sign-in through the site's local stand-in, for any fetch: the worker tests'
// SELF (tests/support/sign-in.ts) and a built server over HTTP (tests/server/sign-in.ts). Start,
// the stand-in's page, its approve form, the callback, with the start's cookies carried back the
// way a browser would. Nothing here depends on the runtime.

export type Fetcher = (url: string, init?: RequestInit) => Promise<Response>;

/** Submits the Steam stand-in's approve form (or its cancel) for `providerPage`; the answer redirects to the callback. */
export function approveAtStandIn(providerPage: URL, steamId: string | "cancel", fetcher: Fetcher): Promise<Response> {
  const form = new URLSearchParams({
    return_to: providerPage.searchParams.get("openid.return_to") ?? "",
    realm: providerPage.searchParams.get("openid.realm") ?? "",
  });
  if (steamId === "cancel") form.set("cancel", "1");
  else form.set("steamid", steamId);
  return fetcher(new URL("approve", providerPage).toString(), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });
}

/**
 * Walks from `startUrl` (the site's /api/auth/steam, with its way back) through the stand-in as
 * `steamId` (or cancels) and answers the callback's response. `fetcher` must not follow redirects.
 * `tamper` rewrites the address the provider sends the browser back to, as an attacker would.
 */
export async function walkStandIn(
  startUrl: string,
  steamId: string | "cancel",
  fetcher: Fetcher,
  tamper: (callback: string) => string = (callback) => callback,
): Promise<Response> {
  const start = await fetcher(startUrl);
  if (start.status !== 302) throw new Error(`start answered ${start.status}`);
  // The sign-in state cookie must come back with the callback, as a browser would send it.
  const state = start.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  const providerPage = new URL(start.headers.get("location") ?? "", startUrl);
  const page = await fetcher(providerPage.toString());
  if (page.status !== 200) throw new Error(`stand-in page answered ${page.status}`);
  const approved = await approveAtStandIn(providerPage, steamId, fetcher);
  if (approved.status !== 302) throw new Error(`stand-in approve answered ${approved.status}`);
  const callback = new URL(tamper(approved.headers.get("location") ?? ""), startUrl);
  return fetcher(callback.toString(), { headers: { cookie: state } });
}
