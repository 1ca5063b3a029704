import { type MouseEvent, useCallback, useState } from "react";
import { data, isRouteErrorResponse, useLocation, useNavigate, useNavigation } from "react-router";
import { z } from "zod";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { pageRequest } from "#app/lib/page-request.server.ts";
import { kopecksToRubles } from "#core/format/money.ts";
import { UNKNOWN_SERVER_ERROR } from "#core/messages/common.ts";
import { SHOP_DELIVERY_HELP } from "#core/messages/shop.ts";
import { positiveIdText } from "#core/schemas/common.ts";
import { parsePageRequest } from "#core/schemas/pagination.ts";
import { paginate, SHOP_PAGE_SIZE } from "#core/shop/pagination.ts";
import { MIN_SEARCH_LENGTH } from "#core/shop/plural.ts";
import { chosenServerType, serverTypeCookieUpdate } from "#core/shop/server-type-choice.ts";
import { DEFAULT_SERVER_TYPE, resolveServerTypes, SERVER_TYPES } from "#core/shop/server-types.ts";
import type { ShopCardItem } from "#core/shop/types.ts";
import { untilWipeOffer } from "#core/shop/until-wipe.ts";
import { closingWindow, purchaseClosedText } from "#core/wipe/fair-play.ts";
import { nextWipeOfType } from "#core/wipe/schedule.ts";
import { openWindowsOfType } from "#worker/services/game/fair-play.ts";
import { readServerStatus } from "#worker/services/server-status.ts";
import { shopPageCatalog } from "#worker/services/shop/catalog.ts";
import { BuyDialog } from "../components/shop/buy-dialog.tsx";
import { CategoryFilter, ServerTypeSelector } from "../components/shop/filters.tsx";
import { ItemCard } from "../components/shop/item-card.tsx";
import { Pager } from "../components/shop/pager.tsx";
import { SearchBox } from "../components/shop/search-box.tsx";
import shopStyles from "../components/shop/shop.css?url";
import { GridSkeletons, useMinimumLoading } from "../components/shop/skeletons.tsx";
import { isPlainClick, SiteLink } from "../components/site-link.tsx";
import type { Route } from "./+types/shop";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: shopStyles }];

export const meta: Route.MetaFunction = () => [
  { title: "Магазин — Свобода" },
  { name: "description", content: "Привилегии, наборы и ресурсы для бесплатных серверов Rust." },
];

/** A type picked in the selector (its link names it) is kept in a cookie for every later page. */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, url }, next) => {
    const response = await next();
    const cookie = serverTypeCookieUpdate(request, url);
    if (!cookie || !(response instanceof Response)) return response;
    const headers = new Headers(response.headers);
    headers.append("set-cookie", cookie);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  },
];

const paramsSchema = z.object({
  server_type: z.string().optional(),
  category_id: positiveIdText.optional().catch(undefined),
  query: z.string().max(100).optional().catch(undefined),
});

export async function loader(args: Route.LoaderArgs) {
  const { request, context, url } = args;
  const deps = context.get(depsContext);
  const params = paramsSchema.parse(Object.fromEntries(url.searchParams));
  const paging = parsePageRequest(
    { page: url.searchParams.get("page"), per_page: url.searchParams.get("per_page") },
    SHOP_PAGE_SIZE,
  );
  if (!paging.ok) throw data(paging.error, { status: 400 });
  // The same list /api/server-types answers; the fallbacks (types in the items, then SOLO) are in resolveServerTypes.
  const types = resolveServerTypes([...SERVER_TYPES], null);
  // The address's type, else the one the player chose before (the cookie), else the first.
  const chosen = chosenServerType(request, url);
  const serverType =
    params.server_type && types.includes(params.server_type)
      ? params.server_type
      : chosen && types.includes(chosen)
        ? chosen
        : (types[0] ?? DEFAULT_SERVER_TYPE);
  const query = params.query?.trim() ?? "";
  const searching = query.length >= MIN_SEARCH_LENGTH;
  const filter = { serverType, categoryId: params.category_id };
  const [{ categories, items, total }, user, status, windows] = await Promise.all([
    shopPageCatalog(deps, filter, searching ? query : null, paging.page),
    pageRequest(args).user(),
    readServerStatus(deps),
    openWindowsOfType(deps, serverType),
  ]);
  const now = deps.now().getTime();
  const page = paginate(paging.page, total);
  if (!page.ok) throw data(page.error, { status: 400 });
  const categoryId = categories.some((category) => category.id === params.category_id)
    ? (params.category_id ?? null)
    : null;
  return {
    types,
    serverType,
    categories,
    categoryId,
    query,
    searching,
    items,
    // A purchase a fair-play window closes, said on its card before any click (issue 46), by item id.
    closed: Object.fromEntries(
      items.flatMap((item) => {
        const window = closingWindow(windows, item);
        return window ? [[item.id, purchaseClosedText(window)]] : [];
      }),
    ) as Record<number, string>,
    pagination: page.pagination,
    balance: user ? kopecksToRubles(user.balance) : null,
    now,
    // When «до вайпа» ends on this type's servers, for the buy dialog (decision 139).
    untilWipe: untilWipeOffer(nextWipeOfType(status.servers, serverType, now)?.at ?? null, now),
  };
}

function emptyText(searching: boolean, categoryId: number | null): string {
  if (searching) return "По вашему запросу ничего не найдено";
  if (categoryId) return "В данной категории пока нет товаров";
  return "Нет предметов";
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  const {
    types,
    serverType,
    categories,
    categoryId,
    query,
    searching,
    items,
    pagination,
    balance,
    now,
    untilWipe,
    closed,
  } = loaderData;
  const navigation = useNavigation();
  const navigate = useNavigate();
  const location = useLocation();
  const loading = useMinimumLoading(navigation.state === "loading" && navigation.location?.pathname === "/shop");
  const [buying, setBuying] = useState<ShopCardItem | null>(null);
  const close = useCallback(() => setBuying(null), []);
  // The dialog itself shows the receipt until the player closes it.
  const purchased = useCallback((item: ShopCardItem) => {
    // A purchase of a limited item fires an event that refreshes the limited list
    // (the action already revalidated this page's loader, which holds it).
    if (item.is_limited) window.dispatchEvent(new CustomEvent("shop:limited-purchase", { detail: { id: item.id } }));
  }, []);
  const filters = { serverType, categoryId, query, perPage: pagination.per_page };
  // One handler for every card's links instead of a <SiteLink> and a handler per card: «Купить» opens
  // the dialog, a title navigates in the app; modified clicks keep the browser's own behaviour.
  const gridClick = (event: MouseEvent<HTMLDivElement>) => {
    if (!isPlainClick(event)) return;
    const link = event.target instanceof Element ? event.target.closest("a") : null;
    const href = link?.getAttribute("href");
    if (!link || !href) return;
    event.preventDefault();
    const buy = items.find((item) => String(item.id) === link.dataset.buy);
    if (buy) setBuying(buy);
    else void navigate(href);
  };

  return (
    <main className="container page shop">
      <nav className="breadcrumbs" aria-label="Навигация">
        <SiteLink to="/">Главная</SiteLink> / <span>Магазин</span>
      </nav>
      <h1>Магазин</h1>
      <p className="shop__subtitle muted">
        Привилегии, наборы и ресурсы, чтобы меньше фармить и быстрее продвигаться. {SHOP_DELIVERY_HELP}
      </p>

      <div className="shop__controls">
        <ServerTypeSelector types={types} {...filters} />
        <SearchBox
          key={`${serverType}:${categoryId}`}
          serverType={serverType}
          categoryId={categoryId}
          query={query}
          perPage={pagination.per_page}
        />
        <CategoryFilter categories={categories} {...filters} />
      </div>

      {loading ? (
        <GridSkeletons />
      ) : items.length === 0 ? (
        <p className="shop__empty">{emptyText(searching, categoryId)}</p>
      ) : (
        // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the clicks are the links' own (Enter on a link clicks it); the grid only routes them
        <div className="shop-grid" onClick={gridClick}>
          {items.map((item, index) => (
            <ItemCard key={item.id} item={item} serverNow={now} eager={index < 4} closed={closed[item.id] ?? null} />
          ))}
        </div>
      )}
      {loading ? null : (
        <Pager pagination={pagination} query={{ server_type: serverType, category_id: categoryId, query }} />
      )}

      {buying ? (
        <BuyDialog
          key={buying.id}
          item={buying}
          balance={balance}
          returnTo={`${location.pathname}${location.search}`}
          onClose={close}
          onPurchased={purchased}
          untilWipe={untilWipe}
        />
      ) : null}
    </main>
  );
}

/** A page number past the last or not a number: the 400's text, and a way back to the first page. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = isRouteErrorResponse(error) && error.status === 400 ? String(error.data) : UNKNOWN_SERVER_ERROR;
  return (
    <main className="container page shop">
      <h1>Магазин</h1>
      <p className="form-error" role="alert">
        {message}
      </p>
      <SiteLink to="/shop" className="button">
        К первой странице
      </SiteLink>
    </main>
  );
}
