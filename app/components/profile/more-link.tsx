import { SHOW_MORE_TEXT } from "#core/messages/history.ts";
import { SiteLink } from "../site-link.tsx";

/**
 * «Показать ещё» under a player's own list (decision 150): a plain link to the next page (`?before=`),
 * so it works without JavaScript; with it, a client-side navigation. Nothing on the last page.
 */
export function MoreLink({ href }: { href: string | null }) {
  if (!href) return null;
  return (
    <p className="profile-more">
      <SiteLink to={href} className="profile-chip" data-testid="show-more" rel="next">
        {SHOW_MORE_TEXT}
      </SiteLink>
    </p>
  );
}
