import { SiteLink } from "./site-link.tsx";

export function SiteFooter({ discordUrl, year }: { discordUrl: string; year: number }) {
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <img src="/images/logo-mono.svg" width={160} height={38} alt="Свобода" loading="lazy" />
        <nav className="site-footer__links" aria-label="Ссылки в подвале">
          <a href={discordUrl} target="_blank" rel="noopener noreferrer">
            Discord
          </a>
          <SiteLink to="/terms">Пользовательское соглашение</SiteLink>
        </nav>
        <p className="site-footer__copy">
          © {year} Свобода. Бесплатные серверы Rust. Проект не связан с Facepunch Studios.
        </p>
      </div>
    </footer>
  );
}
