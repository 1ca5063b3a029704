import { formatDate } from "#core/format/dates.ts";
import { formatRubles } from "#core/format/money.ts";
import { STATEMENT_TEXT } from "#core/messages/statement.ts";
import type { StatementEntry } from "#core/profile/types.ts";

/** «+300 ₽», «−93 ₽» (a true minus sign, as the deposit history writes refunds). */
export function signedRubles(rubles: number): string {
  if (rubles > 0) return `+${formatRubles(rubles)}`;
  if (rubles < 0) return `−${formatRubles(-rubles)}`;
  return formatRubles(0);
}

const { columns } = STATEMENT_TEXT;

/** The balance statement: one row per ledger movement, newest first, with the balance after it. */
export function StatementTable({ entries }: { entries: StatementEntry[] }) {
  if (entries.length === 0) return <p className="profile-empty">{STATEMENT_TEXT.empty}</p>;
  return (
    <table className="history-table statement-table">
      <thead>
        <tr>
          <th scope="col">{columns.date}</th>
          <th scope="col">{columns.what}</th>
          <th scope="col">{columns.amount}</th>
          <th scope="col">{columns.balance}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id} data-testid="statement-row" data-kind={entry.kind}>
            <td data-label={columns.date}>{formatDate(entry.created_at)}</td>
            <td data-label={columns.what}>{entry.description}</td>
            <td
              data-label={columns.amount}
              data-testid="statement-amount"
              data-rubles={entry.amount}
              className={entry.amount < 0 ? "statement-table__debit" : "statement-table__credit"}
            >
              {signedRubles(entry.amount)}
            </td>
            <td data-label={columns.balance} data-testid="statement-balance-after">
              {formatRubles(entry.balance_after)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
