import { hasSellerDetails, SELLER_TEXT } from "#core/messages/seller.ts";
import { WIPE_PAGE_TEXT } from "#core/messages/wipe.ts";
import type { SellerDetails } from "#core/seller.ts";
import { SiteLink } from "./site-link.tsx";

export function SiteFooter({
  discordUrl,
  seller,
  year,
}: {
  discordUrl: string;
  seller: SellerDetails | null;
  year: number;
}) {
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <img src="/images/logo-mono.svg" width={160} height={38} alt="Свобода" loading="lazy" />
        <nav className="site-footer__links" aria-label="Ссылки в подвале">
          <a href={discordUrl} target="_blank" rel="noopener noreferrer">
            Discord
          </a>
          <SiteLink to="/wipes">{WIPE_PAGE_TEXT.link}</SiteLink>
          <SiteLink to="/terms">Пользовательское соглашение</SiteLink>
        </nav>
        {hasSellerDetails(seller) ? <SellerLine seller={seller} /> : null}
        <p className="site-footer__copy">
          © {year} Свобода. Бесплатные серверы Rust. Проект не связан с Facepunch Studios.
        </p>
      </div>
    </footer>
  );
}

/** «Продавец: ИП Иванов И. И. · ИНН 500100732259 · E-mail поддержки: help@…», each part only when set. */
export function SellerLine({ seller }: { seller: SellerDetails }) {
  return (
    <p className="site-footer__seller" data-testid="seller-details">
      {seller.name ? (
        <span>
          {SELLER_TEXT.seller}: {seller.name}
        </span>
      ) : null}
      {seller.inn ? (
        <span>
          {SELLER_TEXT.inn} {seller.inn}
        </span>
      ) : null}
      {seller.email ? (
        <span>
          {SELLER_TEXT.email}: <a href={`mailto:${seller.email}`}>{seller.email}</a>
        </span>
      ) : null}
    </p>
  );
}
