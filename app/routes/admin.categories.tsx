import { Form, redirect } from "react-router";
import { z } from "zod";
import { dispatchIntent, invalidFormError, refused } from "#app/lib/admin/console-answers.server.ts";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { CATEGORY_TEXT } from "#core/messages/admin.ts";
import { categoryFieldsSchema } from "#core/schemas/category.ts";
import { positiveIdText } from "#core/schemas/common.ts";
import { CATEGORY_DESCRIPTION_MAX, CATEGORY_NAME_MAX } from "#core/shop/category-limits.ts";
import type { Deps } from "#worker/deps.ts";
import type { AdminResult } from "#worker/services/admin/balance.ts";
import {
  createCategory,
  deleteCategory,
  listConsoleCategories,
  moveCategory,
  renameCategory,
  setCategoryHidden,
} from "#worker/services/admin/categories.ts";
import type { Operator } from "#worker/services/admin/roles.ts";
import { ActionNotice } from "../components/admin/action-notice.tsx";
import { PostButton } from "../components/admin/post-button.tsx";
import type { Route } from "./+types/admin.categories";

// /admin/categories (admin only, decision 119): what the catalog is divided into. A fresh shop has no
// category and an item needs one, so this is where an empty shop starts. Plain forms; every change
// journaled; each intent its own function below.

type Done = keyof typeof CATEGORY_TEXT.done;
const doneSchema = z
  .enum(Object.keys(CATEGORY_TEXT.done) as [Done, ...Done[]])
  .nullable()
  .catch(null);

export async function loader({ context, request, url }: Route.LoaderArgs) {
  await requireOperator(context, request, "catalog");
  const done = doneSchema.parse(url.searchParams.get("done"));
  const categories = await listConsoleCategories(context.get(depsContext));
  return { categories, done: done ? CATEGORY_TEXT.done[done] : null };
}

/** What an intent answers: done (back by GET with its notice), or refused with a status. */
type IntentResult = { ok: true; done: Done } | { ok: false; status: 400 | 403 | 404 | 409; error: string };

const idOf = (form: FormData) => positiveIdText.safeParse(form.get("id"));
const fieldsOf = (form: FormData) =>
  categoryFieldsSchema.safeParse({ name: form.get("name") ?? "", description: form.get("description") ?? "" });
const notFound = { ok: false, status: 404, error: CATEGORY_TEXT.notFound } as const;
const badFields = (error: z.ZodError) => ({ ok: false, status: 400, error: invalidFormError(error) }) as const;
const outcome = (result: AdminResult, done: Done): IntentResult => (result.ok ? { ok: true, done } : result);

async function create(deps: Deps, operator: Operator, form: FormData): Promise<IntentResult> {
  const fields = fieldsOf(form);
  if (!fields.success) return badFields(fields.error);
  return outcome(await createCategory(deps, operator, fields.data), "created");
}

async function rename(deps: Deps, operator: Operator, form: FormData): Promise<IntentResult> {
  const id = idOf(form);
  if (!id.success) return notFound;
  const fields = fieldsOf(form);
  if (!fields.success) return badFields(fields.error);
  return outcome(await renameCategory(deps, operator, id.data, fields.data), "renamed");
}

const stepSchema = z.enum(["up", "down"]).transform((direction) => (direction === "up" ? -1 : 1) as -1 | 1);

async function move(deps: Deps, operator: Operator, form: FormData): Promise<IntentResult> {
  const id = idOf(form);
  const step = stepSchema.safeParse(form.get("direction"));
  if (!id.success || !step.success) return notFound;
  return outcome(await moveCategory(deps, operator, id.data, step.data), "moved");
}

const hiddenSchema = z.enum(["1", "0"]).transform((value) => value === "1");

async function visibility(deps: Deps, operator: Operator, form: FormData): Promise<IntentResult> {
  const id = idOf(form);
  const hidden = hiddenSchema.safeParse(form.get("hidden"));
  if (!id.success || !hidden.success) return notFound;
  return outcome(await setCategoryHidden(deps, operator, id.data, hidden.data), hidden.data ? "hidden" : "shown");
}

async function remove(deps: Deps, operator: Operator, form: FormData): Promise<IntentResult> {
  const id = idOf(form);
  if (!id.success) return notFound;
  return outcome(await deleteCategory(deps, operator, id.data), "deleted");
}

export async function action({ context, request }: Route.ActionArgs) {
  const operator = await requireOperator(context, request, "catalog");
  const deps = context.get(depsContext);
  return dispatchIntent(await request.formData(), {
    create: (form) => answer(create(deps, operator, form)),
    rename: (form) => answer(rename(deps, operator, form)),
    move: (form) => answer(move(deps, operator, form)),
    visibility: (form) => answer(visibility(deps, operator, form)),
    delete: (form) => answer(remove(deps, operator, form)),
  });
}

async function answer(intent: Promise<IntentResult>) {
  const result = await intent;
  if (!result.ok) return refused(result.error, result.status);
  // Back by GET, so a reload never repeats the post.
  return redirect(`/admin/categories?done=${result.done}`, 303);
}

export default function AdminCategories({ loaderData, actionData }: Route.ComponentProps) {
  const { categories, done } = loaderData;
  return (
    <section className="admin-section" aria-labelledby="categories-title">
      <h2 id="categories-title">{CATEGORY_TEXT.title}</h2>
      <p className="muted">{CATEGORY_TEXT.help}</p>
      <ActionNotice result={actionData ?? (done ? { ok: true, message: done } : undefined)} />
      <Form method="post" className="admin-form" aria-label="Новая категория">
        <input type="hidden" name="intent" value="create" />
        <label className="admin-field">
          Название
          <input name="name" required maxLength={CATEGORY_NAME_MAX} placeholder="Привилегии" />
        </label>
        <label className="admin-field admin-field--wide">
          Описание (необязательно)
          <input name="description" maxLength={CATEGORY_DESCRIPTION_MAX} />
        </label>
        <button type="submit" className="button">
          Добавить категорию
        </button>
      </Form>
      {categories.length === 0 ? (
        <p className="muted" data-testid="no-categories">
          {CATEGORY_TEXT.empty}
        </p>
      ) : (
        <div className="admin-scroll admin-section">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">№ в магазине</th>
                <th scope="col">Название и описание</th>
                <th scope="col" className="admin-table__num">
                  Товаров
                </th>
                <th scope="col">Порядок</th>
                <th scope="col">В магазине</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {categories.map((category, index) => (
                <tr key={category.id} data-testid="admin-category-row">
                  <td>{index + 1}</td>
                  <td>
                    <Form method="post" className="admin-form admin-form--inline">
                      <input type="hidden" name="intent" value="rename" />
                      <input type="hidden" name="id" value={category.id} />
                      <input
                        className="input"
                        name="name"
                        required
                        maxLength={CATEGORY_NAME_MAX}
                        defaultValue={category.name}
                        aria-label={`Название категории №${category.id}`}
                      />
                      <input
                        className="input"
                        name="description"
                        maxLength={CATEGORY_DESCRIPTION_MAX}
                        defaultValue={category.description}
                        placeholder="Описание"
                        aria-label={`Описание категории №${category.id}`}
                      />
                      <button type="submit" className="button button--small button--ghost">
                        Сохранить
                      </button>
                    </Form>
                  </td>
                  <td className="admin-table__num">
                    {category.itemCount}
                    {category.itemCount > category.listedCount && (
                      <span className="muted"> (показано {category.listedCount})</span>
                    )}
                  </td>
                  <td>
                    {index > 0 && (
                      <PostButton fields={{ intent: "move", id: category.id, direction: "up" }} label="Выше" ghost />
                    )}
                    {index < categories.length - 1 && (
                      <PostButton fields={{ intent: "move", id: category.id, direction: "down" }} label="Ниже" ghost />
                    )}
                  </td>
                  <td>
                    {category.hidden && <span className="admin-badge">{CATEGORY_TEXT.hiddenMark}</span>}{" "}
                    <PostButton
                      fields={{ intent: "visibility", id: category.id, hidden: category.hidden ? "0" : "1" }}
                      label={category.hidden ? "Показать" : "Скрыть"}
                      ghost
                    />
                  </td>
                  <td>
                    <PostButton fields={{ intent: "delete", id: category.id }} label="Удалить" ghost />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
