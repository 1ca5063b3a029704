// A local Steam OpenID 2.0 provider: the sign-in page (a demo player or any
// SteamID64 typed in, or cancel) and `check_authentication`, answering with
// the same parameters and key-value text as https://steamcommunity.com/openid/login.
// Identities have Steam's exact form, so the site's identity pattern stays strict.
import { Hono } from "hono";
import { EXPECTED_SIGNED, OPENID_NS, STEAM_IDENTITY_PREFIX } from "../steam/openid.ts";
import { demoSteamAccounts } from "./demo-players.ts";
import type { StandInEnv } from "./env.ts";
import { styleNonceAttribute } from "./style-nonce.ts";

export const steamOpenIdStandIn = new Hono<{ Bindings: StandInEnv }>();

const STEAMID64 = /^7656119\d{10}$/;
const ASSOC_HANDLE = "1234567890";

function endpointOf(c: { env: StandInEnv; req: { url: string } }): string {
  return c.env.steamOpenIdEndpoint || new URL("/__standins/steam-openid/login", c.req.url).toString();
}

async function signingKey(env: StandInEnv): Promise<CryptoKey> {
  const material = new TextEncoder().encode(`steam-openid-standin:${env.secret}`);
  return crypto.subtle.importKey("raw", material, { name: "HMAC", hash: "SHA-1" }, false, ["sign", "verify"]);
}

/** OpenID's key-value form of the signed fields, the text the signature covers. */
function signedText(params: URLSearchParams, signed: string): string {
  return signed
    .split(",")
    .map((key) => `${key}:${params.get(`openid.${key}`) ?? ""}\n`)
    .join("");
}

function toBase64(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)));
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] ?? char,
  );
}

/** The return_to and realm of a sign-in request, when they make sense together. */
function checkRequest(returnTo: string | undefined, realm: string | undefined): string | null {
  if (!returnTo) return "openid.return_to is missing";
  let parsed: URL;
  try {
    parsed = new URL(returnTo);
  } catch {
    return "openid.return_to is not a URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "openid.return_to is not http(s)";
  if (realm && !returnTo.startsWith(realm)) return "openid.return_to does not match openid.realm";
  return null;
}

function page(styleNonce: string, returnTo: string, realm: string, error?: string): string {
  const hidden = `<input type="hidden" name="return_to" value="${escapeHtml(returnTo)}"><input type="hidden" name="realm" value="${escapeHtml(realm)}">`;
  const players = demoSteamAccounts
    .map(
      (player) =>
        `<form method="post" action="approve">${hidden}<input type="hidden" name="steamid" value="${player.steamId}"><button type="submit" data-steamid="${player.steamId}">Войти как ${escapeHtml(player.nickname)} (${player.steamId})</button></form>`,
    )
    .join("");
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Steam — вход (локальная замена)</title>
<style${styleNonce}>body{font-family:system-ui,sans-serif;background:#1b2838;color:#c7d5e0;max-width:32rem;margin:2rem auto;padding:0 1rem}
button,input{font:inherit;padding:.5rem .75rem;margin:.25rem 0}button{background:#66c0f4;border:0;color:#1b2838;cursor:pointer;width:100%}
.error{color:#ff7b7b}.cancel button{background:#3d4450;color:#c7d5e0}</style></head>
<body><h1>Вход через Steam</h1>
<p>Локальная замена Steam для разработки. Сайт <b>${escapeHtml(realm || returnTo)}</b> просит подтвердить ваш аккаунт Steam.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<h2>Демо-игроки</h2>${players}
<h2>Другой SteamID64</h2>
<form method="post" action="approve">${hidden}<label>SteamID64 <input name="steamid" inputmode="numeric" pattern="7656119[0-9]{10}" required placeholder="76561198000000003"></label><button type="submit">Войти</button></form>
<form method="post" action="approve" class="cancel">${hidden}<input type="hidden" name="cancel" value="1"><button type="submit">Отмена</button></form>
</body></html>`;
}

function appendParams(returnTo: string, params: URLSearchParams): string {
  return `${returnTo}${returnTo.includes("?") ? "&" : "?"}${params.toString()}`;
}

// The sign-in page (`openid.mode=checkid_setup`).
steamOpenIdStandIn.get("/login", (c) => {
  const query = c.req.query();
  if (query["openid.ns"] !== OPENID_NS || query["openid.mode"] !== "checkid_setup") {
    return c.text("Invalid OpenID request", 400);
  }
  const returnTo = query["openid.return_to"] ?? "";
  const realm = query["openid.realm"] ?? "";
  const problem = checkRequest(returnTo, realm);
  if (problem) return c.text(problem, 400);
  return c.html(page(styleNonceAttribute(c.env), returnTo, realm));
});

// The player's choice: a positive assertion, or `openid.mode=cancel`.
steamOpenIdStandIn.post("/approve", async (c) => {
  const form = await c.req.parseBody();
  const returnTo = typeof form.return_to === "string" ? form.return_to : "";
  const realm = typeof form.realm === "string" ? form.realm : "";
  const problem = checkRequest(returnTo, realm);
  if (problem) return c.text(problem, 400);
  if (form.cancel) {
    return c.redirect(appendParams(returnTo, new URLSearchParams({ "openid.ns": OPENID_NS, "openid.mode": "cancel" })));
  }
  const steamId = typeof form.steamid === "string" ? form.steamid.trim() : "";
  if (!STEAMID64.test(steamId)) {
    return c.html(
      page(styleNonceAttribute(c.env), returnTo, realm, "Введите SteamID64: 17 цифр, начиная с 7656119."),
      400,
    );
  }
  const identity = `${STEAM_IDENTITY_PREFIX}${steamId}`;
  const random = toBase64(crypto.getRandomValues(new Uint8Array(12)).buffer as ArrayBuffer);
  const params = new URLSearchParams({
    "openid.ns": OPENID_NS,
    "openid.mode": "id_res",
    "openid.op_endpoint": endpointOf(c),
    "openid.claimed_id": identity,
    "openid.identity": identity,
    "openid.return_to": returnTo,
    "openid.response_nonce": `${new Date().toISOString().slice(0, 19)}Z${random}`,
    "openid.assoc_handle": ASSOC_HANDLE,
    "openid.signed": EXPECTED_SIGNED,
  });
  const signature = await crypto.subtle.sign(
    "HMAC",
    await signingKey(c.env),
    new TextEncoder().encode(signedText(params, EXPECTED_SIGNED)),
  );
  params.set("openid.sig", toBase64(signature));
  return c.redirect(appendParams(returnTo, params));
});

// `openid.mode=check_authentication`: Steam's exact key-value answer.
steamOpenIdStandIn.post("/login", async (c) => {
  // Of a repeated field the last value counts, as in providers that read a form into a map. That is
  // the harsher behaviour for the site: what it checked must be the only value it sends.
  const body = new URLSearchParams();
  for (const [key, value] of new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer()))) {
    body.set(key, value);
  }
  if (body.get("openid.mode") !== "check_authentication") return c.text("Invalid OpenID request", 400);
  const signed = body.get("openid.signed") ?? "";
  const signature = fromBase64(body.get("openid.sig") ?? "");
  let valid = false;
  if (signed && signature && body.get("openid.assoc_handle") === ASSOC_HANDLE) {
    valid = await crypto.subtle.verify(
      "HMAC",
      await signingKey(c.env),
      signature,
      new TextEncoder().encode(signedText(body, signed)),
    );
  }
  c.header("content-type", "text/plain;charset=utf-8");
  return c.body(`ns:${OPENID_NS}\nis_valid:${valid ? "true" : "false"}\n`);
});
