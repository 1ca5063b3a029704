import { type FormEvent, useEffect, useState } from "react";
import { Form, useNavigation, useRevalidator } from "react-router";
import { formatRubles } from "#core/format/money.ts";
import { TOP_UP_MESSAGES, TOP_UP_PROGRESS } from "#core/messages/payments.ts";
import { checkTopUp, MIN_TOP_UP_RUBLES, parseRublesText, type TopUpFieldErrors } from "#core/payments/top-up.ts";
import { TOP_UP_PRESETS, topUpHref } from "#core/payments/top-up-link.ts";
import { SiteLink } from "../site-link.tsx";

export interface TopUpFormProps {
  signedIn: boolean;
  /** What the server action answered (no-JavaScript path), if anything. */
  result?: { values?: { amount: string; email: string }; fieldErrors?: TopUpFieldErrors; formError?: string };
  defaultEmail: string;
  /** Rubles to fill in (the amount a purchase was short of), or null. */
  defaultAmount?: number | null;
  /** A same-site path the payment's return brings the player to (the item they were buying), or null. */
  returnTo?: string | null;
  signInHref: string;
  /** The balance now, in rubles (null signed out): the tab left behind sees the payment arrive. */
  balance?: number | null;
}

type Progress =
  | { kind: "idle" }
  | { kind: "creating" }
  | { kind: "created"; paymentUrl: string; opened: boolean; balanceBefore: number | null }
  | { kind: "error"; message: string };

class CreateError extends Error {}

/** How often, and how long, the tab left behind checks whether the payment has come in. */
const POLL_EVERY_MS = 4_000;
const POLL_FOR_MS = 15 * 60_000;

// The API's answer → the text the form shows: a 400's own error text, otherwise ours.
async function createPayment(amount: number, email: string, returnTo: string | null): Promise<string> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const token = window.localStorage.getItem("jwt_token");
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch("/api/payment/create", {
      method: "POST",
      credentials: "same-origin",
      headers,
      body: JSON.stringify(returnTo ? { amount, email, return_to: returnTo } : { amount, email }),
    });
  } catch {
    throw new CreateError(TOP_UP_MESSAGES.createFailed);
  }
  if (response.status === 401) throw new CreateError(TOP_UP_MESSAGES.createUnauthorized);
  const body = (await response.json().catch(() => null)) as { payment_url?: unknown; error?: unknown } | null;
  if (response.status === 400 && typeof body?.error === "string") throw new CreateError(body.error);
  if (!response.ok || typeof body?.payment_url !== "string") throw new CreateError(TOP_UP_MESSAGES.createFailed);
  return body.payment_url;
}

/**
 * Without JavaScript the form posts to the page's action, which redirects to
 * the payment page. With JavaScript it calls POST /api/payment/create and opens
 * the payment page in a new tab, keeping a link in case the tab was blocked.
 */
export function TopUpForm({
  signedIn,
  result,
  defaultEmail,
  defaultAmount = null,
  returnTo = null,
  signInHref,
  balance = null,
}: TopUpFormProps) {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [progress, setProgress] = useState<Progress>({ kind: "idle" });
  const [fieldErrors, setFieldErrors] = useState<TopUpFieldErrors>(result?.fieldErrors ?? {});

  useEffect(() => setFieldErrors(result?.fieldErrors ?? {}), [result]);

  const waiting = progress.kind === "created";
  const paid =
    progress.kind === "created" &&
    balance !== null &&
    progress.balanceBefore !== null &&
    balance > progress.balanceBefore;

  // While the payment tab is open: back to this tab refreshes the balance, and so does a quiet check every
  // few seconds, so the tab left behind never keeps the old balance once the payment is in (issue 36).
  useEffect(() => {
    if (!waiting || paid) return;
    const refresh = () => {
      if (document.visibilityState === "visible") revalidator.revalidate();
    };
    const started = Date.now();
    const timer = window.setInterval(() => {
      if (Date.now() - started > POLL_FOR_MS) window.clearInterval(timer);
      else if (revalidator.state === "idle") revalidator.revalidate();
    }, POLL_EVERY_MS);
    window.addEventListener("focus", refresh);
    document.addEventListener("visibilitychange", refresh);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener("focus", refresh);
      document.removeEventListener("visibilitychange", refresh);
    };
  }, [waiting, paid, revalidator]);

  const amountValue = defaultAmount;
  const creating = progress.kind === "creating" || navigation.state === "submitting";
  const disabled = !signedIn || creating;
  const formError = progress.kind === "error" ? progress.message : progress.kind === "idle" ? result?.formError : null;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (disabled) return;
    const data = new FormData(event.currentTarget);
    const amount = parseRublesText(String(data.get("amount") ?? ""));
    const email = String(data.get("email") ?? "").trim();
    const errors = checkTopUp(amount, email);
    setFieldErrors(errors);
    if (errors.amount || errors.email) return;
    // Opened now, inside the click, so popup blockers allow it; pointed at the payment page once we have it.
    const tab = window.open("", "_blank");
    setProgress({ kind: "creating" });
    try {
      const paymentUrl = await createPayment(amount, email, returnTo);
      let opened = false;
      if (tab && !tab.closed) {
        tab.opener = null;
        tab.location.href = paymentUrl;
        opened = true;
      }
      setProgress({ kind: "created", paymentUrl, opened, balanceBefore: balance });
    } catch (error) {
      tab?.close();
      setProgress({
        kind: "error",
        message: error instanceof CreateError ? error.message : TOP_UP_MESSAGES.createFailed,
      });
    }
  }

  return (
    <Form method="post" className="top-up" noValidate onSubmit={onSubmit} aria-busy={creating}>
      {!signedIn && (
        <p className="top-up__notice" role="alert">
          {TOP_UP_MESSAGES.signInRequired}.{" "}
          <a href={signInHref} rel="nofollow">
            Войти через Steam
          </a>
        </p>
      )}
      {returnTo ? <input type="hidden" name="return_to" value={returnTo} /> : null}
      <fieldset className="top-up__fields" disabled={disabled}>
        <ul className="top-up__presets" aria-label="Быстрый выбор суммы">
          {TOP_UP_PRESETS.map((preset) => (
            <li key={preset}>
              <SiteLink
                to={topUpHref(preset, returnTo)}
                className={`top-up__preset${preset === amountValue ? " top-up__preset--active" : ""}`}
                aria-current={preset === amountValue ? "true" : undefined}
                preventScrollReset
              >
                {formatRubles(preset)}
              </SiteLink>
            </li>
          ))}
        </ul>
        <label className="top-up__field">
          <span>Сумма пополнения, ₽</span>
          <input
            className="input"
            name="amount"
            type="number"
            inputMode="decimal"
            min={MIN_TOP_UP_RUBLES}
            step="0.01"
            placeholder={`от ${MIN_TOP_UP_RUBLES} ₽`}
            key={amountValue ?? "empty"}
            defaultValue={result?.values?.amount ?? (amountValue == null ? "" : String(amountValue))}
            aria-invalid={fieldErrors.amount ? true : undefined}
            aria-describedby={fieldErrors.amount ? "top-up-amount-error" : undefined}
            required
          />
          {fieldErrors.amount && (
            <span id="top-up-amount-error" className="top-up__error">
              {fieldErrors.amount}
            </span>
          )}
        </label>
        <label className="top-up__field">
          <span>E-mail для чека</span>
          <input
            className="input"
            name="email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            defaultValue={result?.values?.email ?? defaultEmail}
            aria-invalid={fieldErrors.email ? true : undefined}
            aria-describedby={fieldErrors.email ? "top-up-email-error" : undefined}
            required
          />
          {fieldErrors.email && (
            <span id="top-up-email-error" className="top-up__error">
              {fieldErrors.email}
            </span>
          )}
        </label>
        <fieldset className="top-up__methods">
          <legend>Способ оплаты</legend>
          <label className="top-up__method">
            <input type="radio" name="method" value="bank_card" defaultChecked />
            <span>Банковская карта</span>
          </label>
        </fieldset>
        <button type="submit" className="button button--large top-up__submit">
          {creating ? "Создание платежа..." : "Пополнить"}
        </button>
      </fieldset>

      <div className="top-up__messages" aria-live="polite">
        {creating && (
          <p className="top-up__loader" role="status">
            <span className="top-up__spinner" aria-hidden="true" /> Создание платежа...
          </p>
        )}
        {formError && (
          <p className="top-up__message top-up__message--error" role="alert">
            {formError}
          </p>
        )}
        {progress.kind === "created" && !paid && (
          <p className="top-up__message top-up__message--success" role="status">
            {progress.opened ? TOP_UP_PROGRESS.openedInTab : TOP_UP_PROGRESS.openYourself}{" "}
            <a href={progress.paymentUrl} target="_blank" rel="noopener noreferrer">
              {TOP_UP_PROGRESS.goPay}
            </a>{" "}
            {TOP_UP_PROGRESS.waiting}
          </p>
        )}
        {paid && (
          <p className="top-up__message top-up__message--success" role="status" data-testid="top-up-paid">
            {TOP_UP_PROGRESS.paid}{" "}
            <SiteLink to={returnTo ?? "/profile"}>
              {returnTo ? TOP_UP_PROGRESS.backToItem : TOP_UP_PROGRESS.toProfile}
            </SiteLink>
          </p>
        )}
      </div>
    </Form>
  );
}
