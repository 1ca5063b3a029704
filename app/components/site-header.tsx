import { Form, useLocation } from "react-router";
import { signInHref } from "#core/auth/sign-in.ts";
import { formatRubles } from "#core/format/money.ts";
import type { PagePlayer } from "#core/profile/player.ts";
import { shopUrl } from "../lib/shop/query.ts";
import { SiteLink } from "./site-link.tsx";

export function SiteHeader({ user, serverType }: { user: PagePlayer | null; serverType: string | null }) {
  const { pathname } = useLocation();
  const current = (active: boolean) => (active ? { className: "active", "aria-current": "page" as const } : {});
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <SiteLink to="/" className="site-header__logo">
          <img src="/images/logo.svg" width={200} height={48} alt="Свобода — Rust серверы" />
        </SiteLink>
        <nav className="site-nav" aria-label="Основное меню">
          <SiteLink to="/" {...current(pathname === "/")}>
            Главная
          </SiteLink>
          <SiteLink
            to={shopUrl({ server_type: serverType })}
            {...current(pathname === "/shop" || pathname.startsWith("/shop/"))}
          >
            Магазин
          </SiteLink>
        </nav>
        <div className="account">{user ? <SignedIn user={user} /> : <SignInLink />}</div>
      </div>
    </header>
  );
}

function SignInLink() {
  const location = useLocation();
  return (
    <a className="button button--steam" href={signInHref(`${location.pathname}${location.search}`)} rel="nofollow">
      Войти через Steam
    </a>
  );
}

function SignedIn({ user }: { user: PagePlayer }) {
  return (
    <>
      <SiteLink to="/profile" className="account__profile" title="Профиль">
        {user.avatarUrl ? (
          <img className="account__avatar" src={user.avatarUrl} width={36} height={36} alt="" />
        ) : (
          <span className="account__avatar account__avatar--empty" aria-hidden="true">
            {user.nickname.slice(0, 1).toUpperCase()}
          </span>
        )}
        <span className="account__text">
          <span className="account__nickname">{user.nickname}</span>
          <span className="account__balance">{formatRubles(user.balance)}</span>
        </span>
      </SiteLink>
      <SiteLink to="/balance" className="button button--small account__top-up">
        Пополнить
      </SiteLink>
      <Form method="post" action="/logout" className="account__logout">
        <button type="submit" className="button button--ghost button--small">
          Выйти
        </button>
      </Form>
    </>
  );
}
