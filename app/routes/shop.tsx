import { useCallback, useState } from "react";
import { Link, useLocation, useNavigation } from "react-router";
import { z } from "zod";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { kopecksToRubles } from "#core/format/money.ts";
import { positiveIdText } from "#core/schemas/common.ts";
import { MIN_SEARCH_LENGTH } from "#core/shop/plural.ts";
import { DEFAULT_SERVER_TYPE, resolveServerTypes, SERVER_TYPES } from "#core/shop/server-types.ts";
import type { ShopCardItem } from "#core/shop/types.ts";
import { getSessionUser } from "#worker/services/auth/sessions.ts";
import { shopPageCatalog } from "#worker/services/shop/catalog.ts";
import { BuyDialog } from "../components/shop/buy-dialog.tsx";
import { CategoryFilter, ServerTypeSelector } from "../components/shop/filters.tsx";
import { ItemCard } from "../components/shop/item-card.tsx";
import { SearchBox } from "../components/shop/search-box.tsx";
import shopStyles from "../components/shop/shop.css?url";
import { GridSkeletons, useMinimumLoading } from "../components/shop/skeletons.tsx";
import { Toast, useToast } from "../components/toast.tsx";
import type { Route } from "./+types/shop";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: shopStyles }];

export const meta: Route.MetaFunction = () => [
  { title: "Магазин — Свобода" },
  { name: "description", content: "Привилегии, наборы и ресурсы для бесплатных серверов Rust." },
];

const paramsSchema = z.object({
  server_type: z.string().optional(),
  category_id: positiveIdText.optional().catch(undefined),
  query: z.string().max(100).optional().catch(undefined),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const deps = context.get(depsContext);
  const url = new URL(request.url);
  const params = paramsSchema.parse(Object.fromEntries(url.searchParams));
  // The same list /api/server-types answers; the fallbacks (types in the items, then SOLO) are in resolveServerTypes.
  const types = resolveServerTypes([...SERVER_TYPES], null);
  const serverType =
    params.server_type && types.includes(params.server_type) ? params.server_type : (types[0] ?? DEFAULT_SERVER_TYPE);
  const query = params.query?.trim() ?? "";
  const searching = query.length >= MIN_SEARCH_LENGTH;
  const filter = { serverType, categoryId: params.category_id };
  const [{ categories, items }, user] = await Promise.all([
    shopPageCatalog(deps, filter, searching ? query : null),
    getSessionUser(deps, request),
  ]);
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
    // The cards and the buy dialog need neither descriptions nor kit contents (the item page shows them).
    items: items.map(({ description: _description, contents: _contents, ...card }) => card),
    balance: user ? kopecksToRubles(user.balance) : null,
    now: deps.now().getTime(),
  };
}

function emptyText(searching: boolean, categoryId: number | null): string {
  if (searching) return "По вашему запросу ничего не найдено";
  if (categoryId) return "В данной категории пока нет товаров";
  return "Нет предметов";
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { types, serverType, categories, categoryId, query, searching, items, balance, now } = loaderData;
  const navigation = useNavigation();
  const location = useLocation();
  const loading = useMinimumLoading(navigation.state === "loading" && navigation.location?.pathname === "/shop");
  const [buying, setBuying] = useState<ShopCardItem | null>(null);
  const toast = useToast();
  const close = useCallback(() => setBuying(null), []);
  const showToast = toast.show;
  const purchased = useCallback(
    (item: ShopCardItem) => {
      showToast(`Покупка совершена: ${item.name}. Предмет в Корзине.`);
      // A purchase of a limited item fires an event that refreshes the limited list
      // (the action already revalidated this page's loader, which holds it).
      if (item.is_limited) window.dispatchEvent(new CustomEvent("shop:limited-purchase", { detail: { id: item.id } }));
    },
    [showToast],
  );
  const filters = { serverType, categoryId, query };

  return (
    <main className="container page shop">
      <nav className="breadcrumbs" aria-label="Навигация">
        <Link to="/">Главная</Link> / <span>Магазин</span>
      </nav>
      <h1>Магазин</h1>
      <p className="shop__subtitle muted">
        Привилегии, наборы и ресурсы, чтобы меньше фармить и быстрее продвигаться. Покупки выдаются на сервере
        автоматически.
      </p>

      <div className="shop__controls">
        <ServerTypeSelector types={types} {...filters} />
        <SearchBox key={`${serverType}:${categoryId}`} serverType={serverType} categoryId={categoryId} query={query} />
        <CategoryFilter categories={categories} {...filters} />
      </div>

      {loading ? (
        <GridSkeletons />
      ) : items.length === 0 ? (
        <p className="shop__empty">{emptyText(searching, categoryId)}</p>
      ) : (
        <div className="shop-grid">
          {items.map((item, index) => (
            <ItemCard key={item.id} item={item} serverNow={now} eager={index < 4} onBuy={setBuying} />
          ))}
        </div>
      )}

      {buying ? (
        <BuyDialog
          key={buying.id}
          item={buying}
          balance={balance}
          returnTo={`${location.pathname}${location.search}`}
          onClose={close}
          onPurchased={purchased}
        />
      ) : null}
      <Toast message={toast.message} />
    </main>
  );
}
