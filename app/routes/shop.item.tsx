import { data, Form, redirect, type ShouldRevalidateFunction, useNavigation } from "react-router";
import { z } from "zod";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { pageRequest } from "#app/lib/page-request.server.ts";
import { signInHref } from "#core/auth/sign-in.ts";
import { formatRubles, kopecksToRubles } from "#core/format/money.ts";
import { serverTypeLabel } from "#core/format/server-type.ts";
import { AUTH_REQUIRED, PAGE_NOT_FOUND } from "#core/messages/common.ts";
import { GIFT_FORM } from "#core/messages/gift-notes.ts";
import {
  blockedText,
  INSUFFICIENT_FUNDS,
  ITEM_INFO_FAILED,
  isInsufficientFunds,
  PURCHASE_ERRORS,
  purchaseErrorText,
  SIGN_IN_TO_BUY,
  TOP_UP_NOT_FINISHED,
  TOPPED_UP_FOR_PURCHASE,
} from "#core/messages/shop.ts";
import { itemReturnPath } from "#core/payments/top-up-link.ts";
import { positiveIdText } from "#core/schemas/common.ts";
import { durationText, purchaseFormFields, purchaseFormSchema, rublesToKopecks } from "#core/schemas/purchase.ts";
import { expectedPriceField } from "#core/shop/expected-price.ts";
import { reloadText } from "#core/shop/plural.ts";
import type { PurchaseActionData } from "#core/shop/types.ts";
import { isUntilWipe, untilWipeOffer } from "#core/shop/until-wipe.ts";
import { closingWindow, purchaseClosedText, receiptWaitsText, waitingWindow } from "#core/wipe/fair-play.ts";
import { nextWipeOfType } from "#core/wipe/schedule.ts";
import type { Deps } from "#worker/deps.ts";
import type { SessionUser } from "#worker/services/auth/sessions.ts";
import { openWindowsOfType } from "#worker/services/game/fair-play.ts";
import { getPurchase } from "#worker/services/profile/purchases.ts";
import { balanceAfterPurchase } from "#worker/services/profile/statement.ts";
import { clientAddress } from "#worker/services/promos/client-address.ts";
import { readServerStatus } from "#worker/services/server-status.ts";
import { getItem } from "#worker/services/shop/catalog.ts";
import type { LookupSource } from "#worker/services/shop/gift-lookup-limit.ts";
import { findGiftRecipient, type GiftRecipient } from "#worker/services/shop/gift-recipient.ts";
import { earlierGift, missingFor, type PurchaseResult, purchaseItem } from "#worker/services/shop/purchase.ts";
import { serversOfType } from "#worker/services/shop/servers-of-type.ts";
import { GuestPrices, ServerTypeNote, ShortOfFunds } from "../components/shop/buy-dialog.tsx";
import { DurationPicker } from "../components/shop/duration-picker.tsx";
import { GiftFields } from "../components/shop/gift-fields.tsx";
import { ItemWipeNote } from "../components/shop/item-wipe-note.tsx";
import { Countdown, LimitedBadge, QuantityBar, useLimitedState } from "../components/shop/limited.tsx";
import { Price } from "../components/shop/price.tsx";
import { Receipt } from "../components/shop/receipt.tsx";
import { SaleEnds, SaleSticker } from "../components/shop/sale-sticker.tsx";
import shopStyles from "../components/shop/shop.css?url";
import { SiteLink } from "../components/site-link.tsx";
import { shopUrl } from "../lib/shop/query.ts";
import type { Route } from "./+types/shop.item";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: shopStyles }];

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `${loaderData.item.name} — Магазин — Свобода` : "Магазин — Свобода" },
  // The item's own text for search results; the shop's line when an item has none.
  {
    name: "description",
    content: loaderData?.item.description || "Привилегии, наборы и ресурсы для бесплатных серверов Rust.",
  },
];

export async function loader(args: Route.LoaderArgs) {
  const { params, request, context } = args;
  const id = positiveIdText.safeParse(params.id);
  if (!id.success) throw data(ITEM_INFO_FAILED, { status: 404 });
  const deps = context.get(depsContext);
  const page = pageRequest(args);
  const [item, user, status] = await Promise.all([getItem(deps, id.data), page.user(), readServerStatus(deps)]);
  if (!item) throw data(ITEM_INFO_FAILED, { status: 404 });
  // The fair-play windows open now on the item's type: a closed purchase is said before any click (issue 46).
  const windows = await openWindowsOfType(deps, item.server_type);
  const closing = closingWindow(windows, item);
  const waiting = waitingWindow(windows, item);
  const query = itemQuerySchema.parse(Object.fromEntries(page.url.searchParams));
  // After a purchase without JavaScript: the receipt, only of the player's own purchase of this item.
  const purchase = user && query.purchased ? await getPurchase(deps, user.id, query.purchased).catch(() => null) : null;
  const receipt =
    user && purchase && purchase.item_name === item.name && purchase.server_type === item.server_type
      ? {
          purchase,
          servers: await serversOfType(deps, item.server_type),
          // The balance right after it, as the statement says, not today's (issue 46).
          balance: await balanceAfterPurchase(deps, user.id, purchase.id).then((after) =>
            after === null ? null : kopecksToRubles(after),
          ),
        }
      : null;
  const now = deps.now().getTime();
  // The next wipe of a server of the item's type, as the server list says it (decision 128).
  const wipe = nextWipeOfType(status.servers, item.server_type, now);
  return {
    item,
    balance: user ? kopecksToRubles(user.balance) : null,
    now,
    wipe,
    closed: closing ? purchaseClosedText(closing) : null,
    // A receipt while a window holds the item back: the delivery waits, and until when.
    waits: waiting ? receiptWaitsText(waiting, serverTypeLabel(item.server_type)) : null,
    // When «до вайпа» ends, said where it is chosen (decision 139).
    untilWipe: item.durations.some((duration) => isUntilWipe(duration.days))
      ? untilWipeOffer(wipe?.at ?? null, now)
      : null,
    // The form's idempotency key: submitting this page twice buys once.
    idempotencyKey: crypto.randomUUID(),
    receipt,
    // Back from a top-up started here: the duration the player had chosen, and how the payment went.
    duration: item.durations.some((duration) => duration.days === query.duration) ? (query.duration ?? null) : null,
    payment: user ? (query.payment ?? null) : null,
    // From the buy dialog's «В подарок другу»: the gift part opens at once.
    giftOpen: query.gift === "1" || Boolean(query.gift_to),
    // Back from a top-up started for a gift: the friend, shown again, so paying is still the gift (issue 36).
    gift:
      user && query.gift_to
        ? await giftOnReturn(deps, { steamId: user.steamId, address: clientAddress(request) }, query.gift_to)
        : null,
    // The page itself, never the ".data" request a client navigation loads it with (issue 36).
    returnTo: page.path,
  };
}

const itemQuerySchema = z.object({
  purchased: positiveIdText.optional().catch(undefined),
  // Days, or 0 for «до вайпа» (decision 130); kept only when the item offers it.
  duration: durationText.optional().catch(undefined),
  payment: z.enum(["success", "failed"]).optional().catch(undefined),
  gift: z.literal("1").optional().catch(undefined),
  gift_to: z
    .string()
    .regex(/^\d{17}$/)
    .optional()
    .catch(undefined),
});

/** The friend a top-up's return names, or why they can't be shown (the field keeps their SteamID). */
async function giftOnReturn(deps: Deps, source: LookupSource, steamId: string) {
  const found = await findGiftRecipient(deps, source, steamId);
  return found.ok
    ? { recipient: found.recipient, query: steamId, error: null }
    : { recipient: null, query: steamId, error: found.error };
}

/** The signed-in player and the address they asked from (a Steam lookup counts against both, issue 36). */
type Buyer = SessionUser & { address: string };

/** The friend the form showed, as the page showed them: only to keep showing them after a refusal. */
const shownFriendSchema = z.object({
  steamId: z.string().regex(/^\d{17}$/),
  nickname: z.string().trim().min(1).max(64),
  avatarUrl: z
    .string()
    .max(500)
    .regex(/^(https?:\/\/|\/)[^\s"'<>]*$/),
});
type Refusal = Omit<Extract<PurchaseActionData, { ok: false }>, "ok" | "status" | "error">;

/** A refused purchase or lookup, in the player's words, with what the form keeps. */
function refused(status: number, error: string, keep: Refusal = {}) {
  return data<PurchaseActionData>({ ok: false, status, error: purchaseErrorText(status, error), ...keep }, { status });
}

export async function action(args: Route.ActionArgs) {
  const { params, request, context } = args;
  const id = positiveIdText.safeParse(params.id);
  if (!id.success) throw data(PAGE_NOT_FOUND, { status: 404 });
  const deps = context.get(depsContext);
  const form = await request.formData();
  const user = await pageRequest(args).user();
  if (!user) return refused(401, AUTH_REQUIRED);
  const buyer = { ...user, address: clientAddress(request) };
  return form.get("intent") === "gift-check" ? showGiftRecipient(deps, buyer, form) : buy(deps, buyer, id.data, form);
}

/** «Показать получателя»: the friend the field names, shown before paying (issue 24). */
async function showGiftRecipient(deps: Deps, user: Buyer, form: FormData) {
  const giftQuery = String(form.get("gift_to") ?? "").trim();
  const parsed = purchaseFormSchema.safeParse(purchaseFormFields(form));
  const duration = parsed.success ? parsed.data.duration : null;
  const found = await findGiftRecipient(deps, user, giftQuery);
  if (!found.ok) return refused(found.status, found.error, { giftQuery, duration });
  return data<PurchaseActionData>({ ok: "gift", recipient: found.recipient, giftQuery, duration });
}

/** «Купить» or «Подарить»: the purchase, for the player or for the friend shown. */
async function buy(deps: Deps, user: Buyer, itemId: number, form: FormData) {
  const parsed = purchaseFormSchema.safeParse(purchaseFormFields(form));
  if (!parsed.success) return refused(400, PURCHASE_ERRORS.badBody);
  const giftQuery = String(form.get("gift_to") ?? "").trim();
  const giftSteamId = String(form.get("gift_steam_id") ?? "").trim();
  // A friend typed but not shown yet, or changed since (Enter in the field): show them, buy nothing (issue 36).
  if (giftQuery && (!giftSteamId || giftQuery !== String(form.get("gift_checked") ?? "").trim())) {
    return showGiftRecipient(deps, user, form);
  }
  const days = parsed.data.duration;
  let giftTo: GiftRecipient | null = null;
  if (giftSteamId) {
    // The same form again after a lost answer: the gift it made, before money or Steam can refuse it (issue 47).
    const earlier = await earlierGift(deps, user.id, parsed.data.idempotency_key, {
      itemId,
      serverType: parsed.data.server_type,
      durationDays: days,
      friend: { steamId: giftSteamId },
    });
    const shown = shownFriendSchema.safeParse({
      steamId: giftSteamId,
      nickname: form.get("gift_nickname"),
      avatarUrl: form.get("gift_avatar"),
    });
    if (earlier) return bought(deps, user, itemId, form, earlier, { duration: days, giftQuery, recipient: shown.data });
    // Short of money: said before the friend is asked of Steam again (issue 36), the friend still shown.
    const missing = await missingFor(deps, user.balance, itemId, days);
    if (missing > 0 && shown.success) {
      return refused(402, PURCHASE_ERRORS.insufficientFunds, {
        missing,
        duration: days,
        recipient: shown.data,
        giftQuery,
      });
    }
    const found = await findGiftRecipient(deps, user, giftSteamId);
    if (!found.ok) return refused(found.status, found.error, { giftQuery, duration: days });
    giftTo = found.recipient;
  }
  const result = await purchaseItem(deps, user.id, {
    itemId,
    serverType: parsed.data.server_type,
    durationDays: days,
    idempotencyKey: parsed.data.idempotency_key,
    expectedPrice: parsed.data.expected_price == null ? null : rublesToKopecks(parsed.data.expected_price),
    giftTo,
  });
  return bought(deps, user, itemId, form, result, { duration: days, giftQuery, recipient: giftTo });
}

/** The purchase's answer on the page: refused (the form keeps what it can), the receipt, or its redirect. */
async function bought(
  deps: Deps,
  user: Buyer,
  itemId: number,
  form: FormData,
  result: PurchaseResult,
  kept: { duration: number | null; giftQuery: string; recipient?: GiftRecipient | null },
) {
  const days = kept.duration;
  // Whatever is refused, a gift stays a gift: the friend stays shown and the button says «Подарить».
  const gift = kept.recipient ? { recipient: kept.recipient, giftQuery: kept.giftQuery } : {};
  if (!result.ok) {
    // The price changed since the page: the new one, for the terms chosen, to confirm (decision 112).
    if (result.price != null)
      return refused(result.status, result.error, { price: result.price, duration: days, ...gift });
    if (!isInsufficientFunds(result.status))
      return refused(result.status, result.error, { ...(days != null ? { duration: days } : {}), ...gift });
    // How much is missing, so the page can offer a top-up of exactly that.
    const missing = await missingFor(deps, user.balance, itemId, days);
    return refused(result.status, result.error, { missing: missing || undefined, duration: days, ...gift });
  }
  // The dialog (JavaScript) stays on its page; a plain form post-redirect-gets so a reload can't resubmit.
  if (form.get("_js") === "1") {
    const [servers, windows] = await Promise.all([
      serversOfType(deps, result.purchase.server_type),
      openWindowsOfType(deps, result.purchase.server_type),
    ]);
    const item = await getItem(deps, itemId);
    const waiting = item ? waitingWindow(windows, item) : null;
    const waits = waiting ? receiptWaitsText(waiting, serverTypeLabel(result.purchase.server_type)) : null;
    return data<PurchaseActionData>({ ok: true, purchase: result.purchase, balance: result.balance, servers, waits });
  }
  throw redirect(`/shop/items/${itemId}?purchased=${result.purchase.id}`);
}

/**
 * A 409 reloads the item, as a page without JavaScript is rendered anew: a changed price shows what it
 * costs now (decision 112), a fair-play window closed since the page was opened replaces «Купить» with
 * what is closed and until when (issue 46).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as PurchaseActionData | undefined)?.ok === false && actionResult?.status === 409
    ? true
    : defaultShouldRevalidate;

export default function ShopItemPage({ loaderData, actionData }: Route.ComponentProps) {
  const { item, balance, now: serverNow, idempotencyKey, receipt, duration, payment, returnTo, giftOpen } = loaderData;
  const giftBack = loaderData.gift;
  const { now, state } = useLimitedState(item, serverNow);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const needsDuration = !item.is_one_time && item.durations.length > 0;
  const blocked = state === "upcoming" || state === "unavailable" || !item.is_available;
  const error = actionData && actionData.ok === false ? actionData : null;
  // The friend shown: just looked up, kept by a refused gift, or named by a top-up's return.
  const recipient =
    actionData?.ok === "gift"
      ? actionData.recipient
      : actionData?.ok === false
        ? (actionData.recipient ?? null)
        : actionData
          ? null
          : (giftBack?.recipient ?? null);
  const giftQuery =
    actionData?.ok === "gift" || actionData?.ok === false ? (actionData.giftQuery ?? "") : (giftBack?.query ?? "");
  const back = shopUrl({ server_type: item.server_type });
  const buyLabel = busy ? "Покупка…" : recipient ? GIFT_FORM.buy : "Купить";
  const missing = error && isInsufficientFunds(error.status) ? (error.missing ?? null) : null;
  // The price each choice was shown at, sent back with the purchase; a 409's new price for the terms it names.
  const shownPrice = (days: number | null, listed: number) =>
    error?.price != null && (error.duration ?? null) === days ? error.price : listed;

  return (
    <main className="container page shop-item">
      <nav className="breadcrumbs" aria-label="Навигация">
        <SiteLink to="/">Главная</SiteLink> / <SiteLink to={back}>Магазин</SiteLink> / <span>{item.name}</span>
      </nav>
      <div className="shop-item__layout">
        <div className="shop-item__media">
          <img className="shop-item__picture" src={item.img} alt="" width={256} height={256} fetchPriority="high" />
          {item.sale ? <SaleSticker sale={item.sale} /> : null}
        </div>
        <div className="shop-item__info">
          <div className="shop-card__badges">
            {state ? <LimitedBadge state={state} item={item} /> : null}
            {item.is_one_time ? <span className="badge">Разовый</span> : null}
          </div>
          <h1>{item.name}</h1>
          <p className="muted">{item.category_name}</p>
          <ServerTypeNote serverType={item.server_type} />
          <SaleEnds sale={item.sale} />
          <p>{item.description}</p>
          {item.reload_time > 0 ? <p className="muted">Перезарядка: {reloadText(item.reload_time)}</p> : null}
          <ItemWipeNote wipe={loaderData.wipe} untilWipe={loaderData.untilWipe !== null} />
          {item.contents.length > 0 ? (
            <ul className="contents">
              {item.contents.map((content) => (
                <li key={content.item}>
                  <img src={content.img} alt="" width={32} height={32} loading="lazy" />
                  {content.item}
                </li>
              ))}
            </ul>
          ) : null}
          {state ? <Countdown item={item} state={state} now={now} /> : null}
          {item.is_limited ? <QuantityBar item={item} /> : null}

          {receipt ? (
            <Receipt
              itemName={item.name}
              isOneTime={item.is_one_time}
              purchase={receipt.purchase}
              balance={receipt.balance}
              servers={receipt.servers}
              giftTo={receipt.purchase.gift_to}
              waits={loaderData.waits}
            />
          ) : null}
          {payment ? (
            <p className={payment === "success" ? "form-success" : "form-error"} role="status">
              {payment === "success" ? TOPPED_UP_FOR_PURCHASE : TOP_UP_NOT_FINISHED}
            </p>
          ) : null}

          {blocked || loaderData.closed ? (
            <p className="form-error" data-testid="purchase-closed">
              {blocked ? blockedText(item, state) : loaderData.closed}
            </p>
          ) : balance == null || error?.status === 401 ? (
            <div className="shop-item__signin">
              <GuestPrices item={item} untilWipe={loaderData.untilWipe} />
              <a className="button button--steam" href={signInHref(returnTo)}>
                {SIGN_IN_TO_BUY}
              </a>
            </div>
          ) : (
            <Form method="post" className="shop-item__form">
              {/* Enter in any field presses a form's first submit button: the purchase, never the gift
                  part's «Показать получателя» (issue 36). The visible button is the one below. */}
              <button
                type="submit"
                className="shop-item__enter-submits"
                tabIndex={-1}
                aria-hidden="true"
                disabled={busy}
              >
                {buyLabel}
              </button>
              <input type="hidden" name="server_type" value={item.server_type} />
              <input type="hidden" name="idempotency_key" value={idempotencyKey} />
              {needsDuration ? (
                item.durations.map((option) => (
                  <input
                    key={option.days}
                    type="hidden"
                    name={expectedPriceField(option.days)}
                    value={shownPrice(option.days, option.discount_price)}
                  />
                ))
              ) : (
                <input type="hidden" name={expectedPriceField(null)} value={shownPrice(null, item.discount_price)} />
              )}
              {needsDuration ? (
                <DurationPicker
                  durations={item.durations}
                  discount={item.discount}
                  defaultDays={(actionData?.ok === "gift" ? actionData.duration : error?.duration) ?? duration}
                  untilWipe={loaderData.untilWipe}
                />
              ) : (
                <p className="shop-item__price">
                  <Price price={item.price} discountPrice={item.discount_price} discount={item.discount} />
                </p>
              )}
              <p className="muted">Ваш баланс: {formatRubles(balance)}</p>
              <GiftFields recipient={recipient} query={giftQuery} open={giftOpen || error?.giftQuery !== undefined} />
              {!actionData && giftBack?.error ? (
                <p className="form-error" role="alert">
                  {giftBack.error}
                </p>
              ) : null}
              {missing ? (
                <ShortOfFunds
                  missing={missing}
                  returnTo={itemReturnPath(item.id, error?.duration, recipient?.steamId)}
                />
              ) : error ? (
                <p className="form-error" role="alert">
                  {isInsufficientFunds(error.status) ? (
                    <>
                      {INSUFFICIENT_FUNDS}. <SiteLink to="/balance">Пополнить баланс</SiteLink>
                    </>
                  ) : (
                    error.error
                  )}
                </p>
              ) : null}
              <button type="submit" className="button" disabled={busy}>
                {buyLabel}
              </button>
            </Form>
          )}
        </div>
      </div>
    </main>
  );
}

/** An unknown or unreadable item: the spec's «item info» text, with a way back to the shop. */
export function ErrorBoundary() {
  return (
    <main className="container page page--center">
      <h1>{ITEM_INFO_FAILED}</h1>
      <SiteLink to="/shop" className="button">
        В магазин
      </SiteLink>
    </main>
  );
}
