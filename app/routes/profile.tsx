import { useEffect } from "react";
import { Outlet, type ShouldRevalidateFunction, useLocation, useNavigate } from "react-router";
import { pageRequest } from "#app/lib/page-request.server.ts";
import {
  isInventoryPage,
  loadProfileUser,
  loadProfileUserAndInventory,
  profileInventoryContext,
  profileUserContext,
} from "#app/lib/profile-user.server.ts";
import { signInHref } from "#core/auth/sign-in.ts";
import { PAYMENT_RETURN_TEXT } from "#core/messages/payments.ts";
import { InfoPanel } from "../components/profile/info-panel.tsx";
import profileStylesheet from "../components/profile/profile.css?url";
import { skipPaymentParamRemoval } from "../components/profile/revalidate.ts";
import { ProfileTabs, tabTitle } from "../components/profile/tabs.tsx";
import { SiteLink } from "../components/site-link.tsx";
import type { Route } from "./+types/profile";

// The layout of /profile, /promocodes, /purchases, /history and /deposits:
// intro with breadcrumbs, the player's info panel, the tabs, and the tab's page.

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: profileStylesheet }];

export const meta: Route.MetaFunction = () => [{ title: "Профиль — Свобода" }, { name: "robots", content: "noindex" }];

export const middleware: Route.MiddlewareFunction[] = [
  async (args, next) => {
    const { context } = args;
    if (isInventoryPage(args)) {
      // /profile: the Корзина rides in the session's round trip (decision 112).
      const { user, inventory } = await loadProfileUserAndInventory(args);
      context.set(profileUserContext, user);
      context.set(profileInventoryContext, inventory);
    } else {
      context.set(profileUserContext, await loadProfileUser(args));
    }
    return next();
  },
];

export async function loader(args: Route.LoaderArgs) {
  const payment = args.url.searchParams.get("payment");
  return {
    // The root's player, built once for the request (after the action, so a return shows the new balance).
    user: await pageRequest(args).player(),
    payment: payment === null ? null : payment === "success" ? ("success" as const) : ("failure" as const),
  };
}

export const shouldRevalidate: ShouldRevalidateFunction = skipPaymentParamRemoval;

export default function ProfileLayout({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const { user } = loaderData;
  // Shown from the loader on the first render, then kept in history state once the parameter is gone.
  const payment = loaderData.payment ?? (location.state as { payment?: "success" | "failure" } | null)?.payment;

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has("payment")) return;
    params.delete("payment");
    const search = params.toString();
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : "" },
      { replace: true, preventScrollReset: true, state: { payment: loaderData.payment } },
    );
  }, [location.pathname, location.search, loaderData.payment, navigate]);

  const title = tabTitle(location.pathname);
  return (
    <main className="container page profile-page">
      <section className="profile-intro">
        <nav className="breadcrumbs" aria-label="Навигация">
          <SiteLink to="/">Главная</SiteLink> <span aria-hidden="true">/</span>{" "}
          <SiteLink to="/profile">Профиль</SiteLink> <span aria-hidden="true">/</span>{" "}
          <span aria-current="page">{title}</span>
        </nav>
        <h1>Профиль</h1>
      </section>

      {payment && (
        <p
          className={`profile-notice profile-notice--${payment === "success" ? "success" : "error"}`}
          role="status"
          data-testid="payment-result"
        >
          {payment === "success" ? PAYMENT_RETURN_TEXT.success : PAYMENT_RETURN_TEXT.failure}
        </p>
      )}

      {user ? (
        <div className="profile-layout">
          <InfoPanel user={user} />
          <div className="profile-main">
            <ProfileTabs />
            <Outlet />
          </div>
        </div>
      ) : (
        <div className="profile-signed-out">
          <Outlet />
          <a className="button button--steam" href={signInHref(location.pathname)} rel="nofollow">
            Войти через Steam
          </a>
        </div>
      )}
    </main>
  );
}
