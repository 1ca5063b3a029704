import { giftToText } from "#core/messages/gift-notes.ts";
import { UNTIL_WIPE_TEXT } from "#core/messages/wipe.ts";
import { isUntilWipe } from "#core/shop/until-wipe.ts";
import type { PlayerDetail } from "#worker/services/admin/players.ts";
import { formatKopecks, formatMoment } from "./format.ts";
import {
  Badge,
  DELIVERY_KIND,
  DELIVERY_STATUS,
  INVENTORY_STATUS,
  LEDGER_KIND_LABEL,
  PAYMENT_STATUS,
  PURCHASE_STATUS,
} from "./labels.tsx";
import { RefundForm } from "./player-forms.tsx";

const days = (value: number | null) =>
  value == null ? "Навсегда" : isUntilWipe(value) ? UNTIL_WIPE_TEXT.term : `${value} дн.`;

function Empty({ children }: { children: string }) {
  return <p className="muted">{children}</p>;
}

export function LedgerTable({ rows }: { rows: PlayerDetail["ledger"] }) {
  if (rows.length === 0) return <Empty>Движений по балансу нет</Empty>;
  return (
    <div className="admin-scroll">
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">Когда</th>
            <th scope="col">Вид</th>
            <th scope="col" className="admin-table__num">
              Сумма
            </th>
            <th scope="col">Основание</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="ledger-row">
              <td>{formatMoment(row.createdAt)}</td>
              <td>{LEDGER_KIND_LABEL[row.kind] ?? row.kind}</td>
              <td className="admin-table__num">{formatKopecks(row.amount, { signed: true })}</td>
              <td>{row.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PurchasesTable({ rows, canRefund }: { rows: PlayerDetail["purchases"]; canRefund: boolean }) {
  if (rows.length === 0) return <Empty>История покупок пуста</Empty>;
  return (
    <div className="admin-scroll">
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">№</th>
            <th scope="col">Когда</th>
            <th scope="col">Предмет</th>
            <th scope="col">Сервер</th>
            <th scope="col">Срок</th>
            <th scope="col" className="admin-table__num">
              Цена
            </th>
            <th scope="col">Статус</th>
            {canRefund && <th scope="col">Возврат</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="admin-purchase-row">
              <td>{row.id}</td>
              <td>{formatMoment(row.paidAt)}</td>
              <td>
                {row.itemName}
                {row.giftTo ? <span className="muted"> · {giftToText(row.giftTo)}</span> : null}
              </td>
              <td>{row.serverType}</td>
              <td>{days(row.durationDays)}</td>
              <td className="admin-table__num">{formatKopecks(row.price)}</td>
              <td>
                <Badge status={row.status} labels={PURCHASE_STATUS} />
              </td>
              {canRefund && <td>{row.status === "completed" ? <RefundForm purchaseId={row.id} /> : "—"}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function InventoryTable({ rows }: { rows: PlayerDetail["inventory"] }) {
  if (rows.length === 0) return <Empty>Нет предметов</Empty>;
  return (
    <div className="admin-scroll">
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">Предмет</th>
            <th scope="col">Сервер</th>
            <th scope="col">Срок</th>
            <th scope="col">Статус</th>
            <th scope="col">Действует до</th>
            <th scope="col">Ошибка доставки</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="admin-inventory-row">
              <td>{row.itemName}</td>
              <td>{row.serverType}</td>
              <td>{days(row.isPermanent ? null : row.durationDays)}</td>
              <td>
                <Badge status={row.status} labels={INVENTORY_STATUS} />
              </td>
              <td>{formatMoment(row.expiresAt)}</td>
              <td>{row.lastError ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function DeliveriesTable({ rows }: { rows: PlayerDetail["deliveries"] }) {
  if (rows.length === 0) return <Empty>Доставок нет</Empty>;
  return (
    <div className="admin-scroll">
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">Создана</th>
            <th scope="col">Вид</th>
            <th scope="col">Предмет</th>
            <th scope="col">Сервер</th>
            <th scope="col">Статус</th>
            <th scope="col" className="admin-table__num">
              Попытки
            </th>
            <th scope="col">Ошибка плагина</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="admin-delivery-row">
              <td>{formatMoment(row.createdAt)}</td>
              <td>{DELIVERY_KIND[row.kind] ?? row.kind}</td>
              <td>{row.itemName}</td>
              <td>{row.serverType}</td>
              <td>
                <Badge status={row.status} labels={DELIVERY_STATUS} />
              </td>
              <td className="admin-table__num">{row.attempts}</td>
              <td>{row.lastError ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PaymentsTable({ rows }: { rows: PlayerDetail["payments"] }) {
  if (rows.length === 0) return <Empty>История пополнений пуста</Empty>;
  return (
    <div className="admin-scroll">
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">Создан</th>
            <th scope="col" className="admin-table__num">
              Сумма
            </th>
            <th scope="col">Статус</th>
            <th scope="col">Зачислен</th>
            <th scope="col">ID у провайдера</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="admin-payment-row">
              <td>{formatMoment(row.createdAt)}</td>
              <td className="admin-table__num">{formatKopecks(row.amount)}</td>
              <td>
                <Badge status={row.status} labels={PAYMENT_STATUS} />
              </td>
              <td>{formatMoment(row.completedAt)}</td>
              <td className="admin-table__mono">{row.providerPaymentId ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
