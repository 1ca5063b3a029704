import { data, type ShouldRevalidateFunction } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { profileUserContext } from "#app/lib/profile-user.server.ts";
import { formatRubles, kopecksToRubles } from "#core/format/money.ts";
import { STATEMENT_TEXT } from "#core/messages/statement.ts";
import { parsePageRequest } from "#core/schemas/pagination.ts";
import { paginate } from "#core/shop/pagination.ts";
import { listStatement, STATEMENT_PAGE_SIZE } from "#worker/services/profile/statement.ts";
import { HistoryPager } from "../components/profile/history-pager.tsx";
import { skipPaymentParamRemoval } from "../components/profile/revalidate.ts";
import { StatementTable } from "../components/profile/statement-table.tsx";
import type { Route } from "./+types/profile.statement";

// /statement: «Движение средств», every movement of the player's balance, newest first, a page at a time.

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = context.get(profileUserContext);
  if (!user) return { entries: [], balance: 0, page: 1, pages: 1 };
  const pageRequest = parsePageRequest({ page: url.searchParams.get("page") }, STATEMENT_PAGE_SIZE);
  if (!pageRequest.ok) throw data(pageRequest.error, { status: 400 });
  const statement = await listStatement(context.get(depsContext), user.id, pageRequest.page);
  const page = paginate(pageRequest.page, statement.total);
  if (!page.ok) throw data(page.error, { status: 400 });
  return {
    entries: statement.entries,
    balance: kopecksToRubles(statement.balance),
    page: page.pagination.page,
    pages: page.pagination.pages,
  };
}

export const shouldRevalidate: ShouldRevalidateFunction = skipPaymentParamRemoval;

export default function Statement({ loaderData }: Route.ComponentProps) {
  const { entries, balance, page, pages } = loaderData;
  return (
    <section className="profile-section" aria-labelledby="statement-title">
      <h2 id="statement-title">{STATEMENT_TEXT.title}</h2>
      {entries.length > 0 ? (
        <p className="statement-total">
          {STATEMENT_TEXT.total}: <strong data-testid="statement-total">{formatRubles(balance)}</strong>
        </p>
      ) : null}
      <StatementTable entries={entries} />
      <HistoryPager path="/statement" page={page} pages={pages} />
    </section>
  );
}

export function ErrorBoundary() {
  return <p className="profile-empty profile-empty--error">{STATEMENT_TEXT.loadFailed}</p>;
}
