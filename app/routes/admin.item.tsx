import { data, Link, redirect } from "react-router";
import { z } from "zod";
import { invalidFormError, refused } from "#app/lib/admin/console-answers.server.ts";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { CATEGORY_TEXT } from "#core/messages/admin.ts";
import { UNTIL_WIPE_TEXT } from "#core/messages/wipe.ts";
import { SERVER_TYPES } from "#core/shop/server-types.ts";
import { createCatalogItem, itemForEdit, listCategories, updateCatalogItem } from "#worker/services/admin/catalog.ts";
import { checkbox, itemFormSchema } from "#worker/services/admin/catalog-input.ts";
import { ActionNotice } from "../components/admin/action-notice.tsx";
import { EMPTY_ITEM, ItemForm, type ItemFormValues } from "../components/admin/item-form.tsx";
import type { Route } from "./+types/admin.item";

// /admin/items/new and /admin/items/:id: add or edit one item.

const idSchema = z.union([z.literal("new"), z.coerce.number().int().positive()]);

const rubles = (kopecks: number | null) => (kopecks == null ? "" : String(kopecks / 100).replace(".", ","));
// datetime-local in Moscow time, from epoch ms.
const moscow = (ms: number | null) => (ms == null ? "" : new Date(ms + 3 * 3_600_000).toISOString().slice(0, 16));

export async function loader({ context, params, request, url }: Route.LoaderArgs) {
  await requireOperator(context, request, "catalog");
  const deps = context.get(depsContext);
  const id = idSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const categories = await listCategories(deps);
  const done = url.searchParams.get("done") === "saved" ? "Товар сохранён" : null;
  if (id.data === "new") return { id: null, values: EMPTY_ITEM, categories, serverTypes: SERVER_TYPES, done };
  const found = await itemForEdit(deps, id.data);
  if (!found) throw data(null, { status: 404 });
  const { item, durations, commands } = found;
  const values: ItemFormValues = {
    name: item.name,
    description: item.description,
    price: rubles(item.price),
    discount: String(item.discount),
    img: item.img,
    serverType: item.serverType,
    categoryId: String(item.categoryId),
    isOneTime: item.isOneTime,
    isAvailable: item.isAvailable,
    durations: [
      ...durations.map((d) => (d.price == null ? `${d.days}` : `${d.days} = ${rubles(d.price)}`)),
      ...(item.untilWipePrice == null ? [] : [`${UNTIL_WIPE_TEXT.consoleLine} = ${rubles(item.untilWipePrice)}`]),
    ].join("\n"),
    startTime: moscow(item.startTime),
    endTime: moscow(item.endTime),
    maxQuantity: item.maxQuantity == null ? "" : String(item.maxQuantity),
    soldQuantity: item.soldQuantity,
    grantCommands: commands
      .filter((c) => c.phase === "grant")
      .map((c) => c.template)
      .join("\n"),
    revokeCommands: commands
      .filter((c) => c.phase === "revoke")
      .map((c) => c.template)
      .join("\n"),
  };
  return { id: item.id, values, categories, serverTypes: SERVER_TYPES, done };
}

/** A refused save: why, and what the operator typed, so the form shows it back without JavaScript too. */
type ItemRefusal = { ok: false; error: string; typed: TypedItem };
type TypedItem = Omit<ItemFormValues, "soldQuantity">;

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** The form's fields as sent; only shown back in the form, never saved (the schema reads the same form). */
function typedItem(form: FormData): TypedItem {
  return {
    name: text(form, "name"),
    description: text(form, "description"),
    price: text(form, "price"),
    discount: text(form, "discount"),
    img: text(form, "img"),
    serverType: text(form, "serverType"),
    categoryId: text(form, "categoryId"),
    isOneTime: checkbox.parse(text(form, "isOneTime") || undefined),
    isAvailable: checkbox.parse(text(form, "isAvailable") || undefined),
    durations: text(form, "durations"),
    startTime: text(form, "startTime"),
    endTime: text(form, "endTime"),
    maxQuantity: text(form, "maxQuantity"),
    grantCommands: text(form, "grantCommands"),
    revokeCommands: text(form, "revokeCommands"),
  };
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const operator = await requireOperator(context, request, "catalog");
  const deps = context.get(depsContext);
  const id = idSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const form = await request.formData();
  const refuse = (error: string, status: number) =>
    refused<ItemRefusal>(error, status, undefined, { typed: typedItem(form) });
  const input = itemFormSchema.safeParse(Object.fromEntries(form));
  if (!input.success) return refuse(invalidFormError(input.error), 400);
  if (id.data === "new") {
    const created = await createCatalogItem(deps, operator, input.data);
    if (!created.ok) return refuse(created.error, created.status);
    return redirect(`/admin/items/${created.itemId}?done=saved`);
  }
  const updated = await updateCatalogItem(deps, operator, id.data, input.data);
  if (!updated.ok) return refuse(updated.error, updated.status);
  return redirect(`/admin/items/${id.data}?done=saved`);
}

export default function AdminItem({ loaderData, actionData }: Route.ComponentProps) {
  const { id, categories, serverTypes, done } = loaderData;
  // A refused save shows back what was typed: without JavaScript the page is rendered anew.
  const values: ItemFormValues =
    actionData?.ok === false ? { ...loaderData.values, ...actionData.typed } : loaderData.values;
  return (
    <section className="admin-section" aria-labelledby="item-title">
      <h2 id="item-title">{id ? `Товар №${id}` : "Новый товар"}</h2>
      <ActionNotice result={actionData ?? (done ? { ok: true, message: done } : undefined)} />
      {categories.length === 0 ? (
        // A fresh shop: an item needs a category, and there is none to choose yet (decision 119).
        <p data-testid="item-needs-category">
          {CATEGORY_TEXT.noneForItem}{" "}
          <Link to="/admin/categories" className="button button--small">
            {CATEGORY_TEXT.createFirst}
          </Link>
        </p>
      ) : (
        <ItemForm
          key={id ?? "new"}
          values={values}
          categories={categories}
          serverTypes={serverTypes}
          submitLabel={id ? "Сохранить" : "Добавить товар"}
        />
      )}
    </section>
  );
}
