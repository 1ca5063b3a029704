import { useEffect, useRef } from "react";
import { data, redirect, useNavigate } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { safeReturnPath } from "#worker/services/auth/return-path.ts";
import { readSessionCookie, verifySessionToken } from "#worker/services/auth/sessions.ts";
import { storeToken } from "../lib/api-client.ts";
import { useAuth } from "../lib/auth-context.tsx";
import type { Route } from "./+types/auth-success";

export const meta: Route.MetaFunction = () => [
  { title: "Авторизация — Свобода" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

const PRIVATE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  if (!token) throw redirect("/");
  const next = safeReturnPath(url.searchParams.get("next"));
  // Only the token of this browser's own new session is stored: the callback set the same
  // token as the session cookie. A token pushed through a link (someone else's account) is ignored.
  const deps = context.get(depsContext);
  const cookieToken = readSessionCookie(request, deps.config);
  const [fromUrl, fromCookie] = await Promise.all([
    verifySessionToken(deps, token),
    cookieToken ? verifySessionToken(deps, cookieToken) : null,
  ]);
  if (!fromUrl || fromUrl !== fromCookie) throw redirect(next, { headers: PRIVATE });
  return data({ token, next }, { headers: PRIVATE });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export default function AuthSuccess({ loaderData }: Route.ComponentProps) {
  const { token, next } = loaderData;
  const { recheck } = useAuth();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    storeToken(token);
    // The token leaves the address bar (and history) at once.
    window.history.replaceState(window.history.state, "", window.location.pathname);
    void recheck().finally(() => navigate(next, { replace: true }));
  }, [token, next, recheck, navigate]);

  return (
    <main className="container page page--center">
      <p role="status">Авторизация успешна. Перенаправление...</p>
      {/* Without JavaScript the session cookie already signs the player in; this just moves on. */}
      <noscript
        // biome-ignore lint/security/noDangerouslySetInnerHtml: a same-site path checked by safeReturnPath, escaped
        dangerouslySetInnerHTML={{ __html: `<meta http-equiv="refresh" content="0;url=${escapeAttribute(next)}">` }}
      />
      <p>
        <a href={next}>Продолжить</a>
      </p>
    </main>
  );
}
