import { formatDate } from "#core/format/dates.ts";
import { formatRubles } from "#core/format/money.ts";
import { DEPOSIT_CREDITED_TEXT } from "#core/messages/history.ts";
import type { DepositView } from "#core/profile/types.ts";
import { depositStatusLabel, statusTone } from "./labels.ts";

/** When the money arrived; a top-up still waiting or never paid says so instead of «Нет данных». */
function creditedText(deposit: DepositView): string {
  if (deposit.completed_at) return formatDate(deposit.completed_at);
  return deposit.status === "pending" ? DEPOSIT_CREDITED_TEXT.pending : DEPOSIT_CREDITED_TEXT.notCredited;
}

export function DepositTable({ deposits }: { deposits: DepositView[] }) {
  if (deposits.length === 0) return <p className="profile-empty">История пополнений пуста</p>;
  return (
    <table className="history-table">
      <thead>
        <tr>
          <th scope="col">Дата</th>
          <th scope="col">Сумма</th>
          <th scope="col">Статус</th>
          <th scope="col">Зачислено</th>
          <th scope="col">Платёж</th>
        </tr>
      </thead>
      <tbody>
        {deposits.map((deposit) => (
          <tr key={deposit.ID} data-testid="deposit-row">
            <td data-label="Дата">{formatDate(deposit.CreatedAt)}</td>
            <td data-label="Сумма">
              {deposit.status === "refunded" ? `−${formatRubles(deposit.amount)}` : formatRubles(deposit.amount)}
            </td>
            <td data-label="Статус">
              <span className={`profile-badge profile-badge--${statusTone(deposit.status)}`}>
                {depositStatusLabel(deposit.status)}
              </span>
            </td>
            <td data-label="Зачислено">{creditedText(deposit)}</td>
            <td data-label="Платёж" className="history-table__id">
              {deposit.payment_id ?? deposit.ID}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
