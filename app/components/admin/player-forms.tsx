import { Form } from "react-router";

/** Moves the balance by a signed amount in rubles; the reason goes to the ledger and the journal. */
export function AdjustBalanceForm() {
  return (
    <Form method="post" className="admin-form" aria-label="Корректировка баланса">
      <input type="hidden" name="intent" value="adjust" />
      <label className="admin-field">
        Сумма, ₽ (минус — списать)
        <input name="amount" inputMode="decimal" required placeholder="150 или -99,50" />
      </label>
      <label className="admin-field admin-field--wide">
        Причина
        <input name="reason" required minLength={3} maxLength={500} />
      </label>
      <button type="submit" className="button">
        Изменить баланс
      </button>
    </Form>
  );
}

export function BlockForm({ blocked }: { blocked: boolean }) {
  return (
    <Form method="post" className="admin-form" aria-label="Покупки игрока">
      <input type="hidden" name="intent" value="block" />
      <input type="hidden" name="blocked" value={blocked ? "0" : "1"} />
      <p className="admin-field">
        Покупки:{" "}
        {blocked ? (
          <span className="admin-badge admin-badge--bad">Заблокированы</span>
        ) : (
          <span className="admin-badge admin-badge--good">Разрешены</span>
        )}
      </p>
      <label className="admin-field admin-field--wide">
        Причина
        <input name="reason" required minLength={3} maxLength={500} />
      </label>
      <button type="submit" className={blocked ? "button" : "button button--ghost"}>
        {blocked ? "Разблокировать покупки" : "Заблокировать покупки"}
      </button>
    </Form>
  );
}

export function RefundForm({ purchaseId }: { purchaseId: number }) {
  return (
    <Form method="post" className="admin-form admin-form--inline" aria-label={`Возврат покупки №${purchaseId}`}>
      <input type="hidden" name="intent" value="refund" />
      <input type="hidden" name="purchaseId" value={purchaseId} />
      <label className="admin-field">
        Причина возврата
        <input name="reason" required minLength={3} maxLength={500} />
      </label>
      <button type="submit" className="button button--small">
        Возврат
      </button>
    </Form>
  );
}
