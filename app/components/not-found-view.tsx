import { SiteLink } from "./site-link.tsx";

/** What any unknown address shows (with HTTP 404). */
export function NotFoundView() {
  return (
    <main className="container page page--center">
      <p className="page__code" aria-hidden="true">
        404
      </p>
      <h1>Страница не найдена</h1>
      <p className="muted">Такой страницы нет: возможно, ссылка устарела или в адресе опечатка.</p>
      <SiteLink to="/" className="button">
        На главную
      </SiteLink>
    </main>
  );
}
