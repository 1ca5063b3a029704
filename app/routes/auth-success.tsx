import { useEffect, useRef, useState } from "react";
import { data, redirect, useNavigate } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { SIGN_IN_CODE_INVALID } from "#core/messages/auth.ts";
import { signInCodeSchema } from "#core/schemas/auth.ts";
import { safeReturnPath } from "#worker/services/auth/return-path.ts";
import { signInCodeIsLiveHere } from "#worker/services/auth/sign-in-codes.ts";
import { apiRequest, storeToken } from "../lib/api-client.ts";
import { useAuth } from "../lib/auth-context.tsx";
import type { Route } from "./+types/auth-success";

export const meta: Route.MetaFunction = () => [
  { title: "Авторизация — Свобода" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

const PRIVATE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

type LoaderData = { code: string; next: string; error: null } | { code: null; next: string; error: string };

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const code = signInCodeSchema.safeParse(url.searchParams.get("code"));
  if (!code.success) throw redirect("/");
  const next = safeReturnPath(url.searchParams.get("next"));
  // The session cookie set at the callback already signs this browser in; the code only lets the
  // page fetch the bearer token once. A code that is used, expired or not this browser's own
  // (someone else's account pushed through a link) signs nobody in.
  const live = await signInCodeIsLiveHere(context.get(depsContext), request, code.data);
  const result: LoaderData = live
    ? { code: code.data, next, error: null }
    : { code: null, next, error: SIGN_IN_CODE_INVALID };
  return data(result, { headers: PRIVATE });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export default function AuthSuccess({ loaderData }: Route.ComponentProps) {
  const { code, next } = loaderData;
  const { recheck } = useAuth();
  const navigate = useNavigate();
  const started = useRef(false);
  const [error, setError] = useState<string | null>(loaderData.error);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The code leaves the address bar (and history) at once; it is good for one exchange anyway.
    window.history.replaceState(window.history.state, "", window.location.pathname);
    if (!code) return;
    void apiRequest<{ token?: unknown }>("/auth/exchange", { method: "POST", json: { code } })
      .then(async (answer) => {
        if (typeof answer?.token !== "string") throw new Error("no token");
        storeToken(answer.token);
        await recheck();
        await navigate(next, { replace: true });
      })
      .catch(() => setError(SIGN_IN_CODE_INVALID));
  }, [code, next, recheck, navigate]);

  if (error) {
    return (
      <main className="container page page--center">
        <p role="alert" className="auth-error__text">
          {error}
        </p>
        <p>
          <a href={`/api/auth/steam?return_to=${encodeURIComponent(next)}`}>Войти через Steam</a>
        </p>
      </main>
    );
  }

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
