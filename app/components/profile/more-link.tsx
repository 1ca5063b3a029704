import type { MouseEvent } from "react";
import { SHOW_MORE_LOADING_TEXT, SHOW_MORE_TEXT } from "#core/messages/history.ts";
import { SiteLink } from "../site-link.tsx";

/**
 * «Показать ещё» under a player's own list (decision 150): a plain link to the next page (`?before=`),
 * so it works without JavaScript; with it, `onMore` (useMorePages, decision 156) appends the next page
 * under the list, and the link says «Загрузка…» meanwhile. Nothing on the last page.
 */
export function MoreLink({
  href,
  loading = false,
  onMore,
}: {
  href: string | null;
  loading?: boolean;
  onMore?: (event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  if (!href) return null;
  return (
    <p className="profile-more">
      <SiteLink
        to={href}
        className="profile-chip"
        data-testid="show-more"
        rel="next"
        onClick={onMore}
        aria-busy={loading || undefined}
        aria-disabled={loading || undefined}
      >
        {loading ? SHOW_MORE_LOADING_TEXT : SHOW_MORE_TEXT}
      </SiteLink>
    </p>
  );
}
