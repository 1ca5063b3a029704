// The item page's form, posted to its action the way React Router does, and what it answered.
import type { Deps } from "#worker/deps.ts";
import { action } from "../../app/routes/shop.item.tsx";
import { routeArgs } from "./routes.ts";
import { sessionCookie } from "./sign-in.ts";

/** The item page's action for `fields`, posted by `token`'s player (from `address` when given). */
export function postItemForm(
  deps: Deps,
  itemId: number,
  fields: Record<string, string>,
  token: string,
  address?: string,
): Promise<unknown> {
  const headers = new Headers({ cookie: sessionCookie(token).cookie });
  if (address) headers.set("cf-connecting-ip", address);
  const url = `http://localhost/shop/items/${itemId}`;
  return action(
    routeArgs<Parameters<typeof action>[0]>(
      deps,
      url,
      { method: "POST", body: new URLSearchParams(fields), headers },
      { params: { id: String(itemId) }, pattern: "/shop/items/:id" },
    ),
  ).catch((thrown: unknown) => thrown);
}

/** The action's answer: a redirect's status and location, or the data's status and body. */
export function formAnswer(result: unknown): { status: number; body: unknown } {
  if (result instanceof Response) return { status: result.status, body: result.headers.get("location") };
  const value = result as { data: unknown; init: ResponseInit | null };
  return { status: value.init?.status ?? 200, body: value.data };
}
