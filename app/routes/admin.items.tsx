import { Link, redirect } from "react-router";
import { z } from "zod";
import { refused } from "#app/lib/admin/console-answers.server.ts";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { CATALOG_TEXT, CATEGORY_TEXT } from "#core/messages/admin.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";
import { listCatalog, setItemVisible } from "#worker/services/admin/catalog.ts";
import { ActionNotice } from "../components/admin/action-notice.tsx";
import { formatKopecks, formatMoment } from "../components/admin/format.ts";
import { PostButton } from "../components/admin/post-button.tsx";
import type { Route } from "./+types/admin.items";

// /admin/items: the catalog per server type, with hide/show; editing is on the item's page.

const typeSchema = z.enum(SERVER_TYPES).nullable().catch(null);

export async function loader({ context, request, url }: Route.LoaderArgs) {
  await requireOperator(context, request, "catalog");
  const serverType = typeSchema.parse(url.searchParams.get("type"));
  const catalog = await listCatalog(context.get(depsContext), serverType);
  const done = url.searchParams.get("done");
  return {
    serverType,
    serverTypes: SERVER_TYPES,
    items: catalog.items,
    hasCategories: catalog.categories.length > 0,
    done: done === "hidden" ? "Товар скрыт" : done === "shown" ? "Товар снова в магазине" : null,
  };
}

const visibilitySchema = z.object({
  itemId: z.coerce.number().int().positive(),
  visible: z.enum(["1", "0"]).transform((value) => value === "1"),
});

export async function action({ context, request }: Route.ActionArgs) {
  const operator = await requireOperator(context, request, "catalog");
  const input = visibilitySchema.safeParse(Object.fromEntries(await request.formData()));
  if (!input.success) return refused(CATALOG_TEXT.notFound, 400);
  const result = await setItemVisible(context.get(depsContext), operator, input.data.itemId, input.data.visible);
  if (!result.ok) return refused(result.error, result.status);
  return redirect(`/admin/items?done=${input.data.visible ? "shown" : "hidden"}`);
}

export default function AdminItems({ loaderData, actionData }: Route.ComponentProps) {
  const { items, serverType, serverTypes, done, hasCategories } = loaderData;
  return (
    <section className="admin-section" aria-labelledby="items-title">
      <div className="admin-head">
        <h2 id="items-title">Каталог</h2>
        {hasCategories && (
          <Link to="/admin/items/new" className="button">
            Добавить товар
          </Link>
        )}
      </div>
      {!hasCategories && (
        <p data-testid="item-needs-category">
          {CATEGORY_TEXT.noneForItem}{" "}
          <Link to="/admin/categories" className="button button--small">
            {CATEGORY_TEXT.createFirst}
          </Link>
        </p>
      )}
      <ActionNotice result={actionData ?? (done ? { ok: true, message: done } : undefined)} />
      <nav className="admin-nav" aria-label="Типы серверов">
        <Link to="/admin/items" className="admin-nav__link" aria-current={serverType === null ? "page" : undefined}>
          Все
        </Link>
        {serverTypes.map((type) => (
          <Link
            key={type}
            to={`/admin/items?type=${type}`}
            className="admin-nav__link"
            aria-current={serverType === type ? "page" : undefined}
          >
            {type}
          </Link>
        ))}
      </nav>
      <div className="admin-scroll">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">№</th>
              <th scope="col">Товар</th>
              <th scope="col">Сервер</th>
              <th scope="col">Категория</th>
              <th scope="col" className="admin-table__num">
                Цена
              </th>
              <th scope="col">Лимит</th>
              <th scope="col">В магазине</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id} data-testid="admin-item-row">
                <td>{item.id}</td>
                <td>
                  <Link to={`/admin/items/${item.id}`}>{item.name}</Link>
                  {item.isOneTime && <span className="muted"> · разовый</span>}
                </td>
                <td>{item.serverType}</td>
                <td>
                  {item.categoryName}
                  {item.categoryHidden && <span className="muted"> ({CATEGORY_TEXT.hiddenMark})</span>}
                </td>
                <td className="admin-table__num">
                  {formatKopecks(item.price)}
                  {item.discount > 0 && <span className="muted"> −{item.discount}%</span>}
                </td>
                <td>
                  {item.maxQuantity != null && `продано ${item.soldQuantity} из ${item.maxQuantity}`}
                  {item.startTime != null && <div className="muted">с {formatMoment(item.startTime)}</div>}
                  {item.endTime != null && <div className="muted">до {formatMoment(item.endTime)}</div>}
                </td>
                <td>
                  <PostButton
                    fields={{ itemId: item.id, visible: item.isAvailable ? "0" : "1" }}
                    label={item.isAvailable ? "Скрыть" : "Показать"}
                    ghost
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
