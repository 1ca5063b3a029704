import { data, redirect } from "react-router";
import { z } from "zod";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { pageRequest } from "#app/lib/page-request.server.ts";
import { signInHref } from "#core/auth/sign-in.ts";
import { formatRubles, kopecksToRubles } from "#core/format/money.ts";
import { TOP_UP_MESSAGES, TOP_UP_RETURN_NOTE } from "#core/messages/payments.ts";
import { amountError, MIN_TOP_UP_RUBLES, parseRublesText, type TopUpFieldErrors } from "#core/payments/top-up.ts";
import { topUpFormSchema } from "#core/schemas/top-up.ts";
import {
  createTopUp,
  lastTopUpEmail,
  paymentReturnNext,
  TopUpUnavailableError,
} from "#worker/services/payments/payments.ts";
import { PaymentProviderError } from "#worker/services/payments/provider.ts";
import balanceStylesheet from "../components/balance/balance.css?url";
import { TopUpForm } from "../components/balance/top-up-form.tsx";
import { SiteLink } from "../components/site-link.tsx";
import type { Route } from "./+types/balance";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: balanceStylesheet }];

export const meta: Route.MetaFunction = () => [
  { title: "Пополнение баланса — Свобода" },
  { name: "description", content: "Пополните баланс банковской картой, чтобы покупать предметы в магазине серверов." },
];

// From a purchase the player was short for: the missing amount, and the item to come back to after paying.
const prefillSchema = z.object({
  amount: z
    .string()
    .transform(parseRublesText)
    .refine((amount) => amountError(amount) === null)
    .optional()
    .catch(undefined),
  return_to: z.string().max(512).optional().catch(undefined),
});

export async function loader(args: Route.LoaderArgs) {
  const deps = args.context.get(depsContext);
  const page = pageRequest(args);
  const prefill = prefillSchema.parse(Object.fromEntries(page.url.searchParams));
  const user = await page.user();
  return {
    signedIn: user !== null,
    balance: user ? kopecksToRubles(user.balance) : null,
    defaultEmail: user ? await lastTopUpEmail(deps, user.id) : "",
    amount: prefill.amount ?? null,
    returnTo: paymentReturnNext(prefill.return_to),
    signInHref: signInHref(page.path),
  };
}

interface ActionResult {
  values: { amount: string; email: string };
  fieldErrors?: TopUpFieldErrors;
  formError?: string;
}

// The form without JavaScript: validate, create the payment, go to the provider's page.
export async function action(args: Route.ActionArgs) {
  const { context, request } = args;
  const deps = context.get(depsContext);
  const form = await request.formData();
  const values = { amount: String(form.get("amount") ?? ""), email: String(form.get("email") ?? "") };
  // The item a short purchase came from: the payment's return brings the player back there.
  const returnTo = String(form.get("return_to") ?? "") || undefined;
  const user = await pageRequest(args).user();
  if (!user) {
    return data<ActionResult>({ values, formError: TOP_UP_MESSAGES.createUnauthorized }, { status: 401 });
  }
  const parsed = topUpFormSchema.safeParse({ ...values, return_to: returnTo });
  if (!parsed.success) {
    const fieldErrors: TopUpFieldErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === "amount" || field === "email") && !fieldErrors[field]) fieldErrors[field] = issue.message;
    }
    return data<ActionResult>({ values, fieldErrors }, { status: 400 });
  }
  try {
    const created = await createTopUp(deps, user, parsed.data);
    return redirect(created.paymentUrl, 303);
  } catch (error) {
    if (error instanceof TopUpUnavailableError || error instanceof PaymentProviderError) {
      return data<ActionResult>({ values, formError: TOP_UP_MESSAGES.createFailed }, { status: 502 });
    }
    throw error;
  }
}

export default function Balance({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <main className="container page balance-page">
      <nav className="breadcrumbs" aria-label="Навигация">
        <SiteLink to="/">Главная</SiteLink> <span aria-hidden="true">/</span> <span>Пополнение баланса</span>
      </nav>
      <h1>Пополнение баланса</h1>
      {loaderData.balance !== null && (
        <p className="balance-page__current">
          Ваш баланс: <strong>{formatRubles(loaderData.balance)}</strong>
        </p>
      )}
      {loaderData.returnTo ? <p className="balance-page__return">{TOP_UP_RETURN_NOTE}</p> : null}
      <TopUpForm
        signedIn={loaderData.signedIn}
        result={actionData}
        defaultEmail={loaderData.defaultEmail}
        defaultAmount={loaderData.amount}
        returnTo={loaderData.returnTo}
        signInHref={loaderData.signInHref}
        balance={loaderData.balance}
      />
      <p className="muted">
        {`Минимальная сумма — ${formatRubles(MIN_TOP_UP_RUBLES)}. Оплата банковской картой; чек придёт на указанный e-mail. Деньги зачисляются на баланс автоматически после оплаты.`}
      </p>
    </main>
  );
}
