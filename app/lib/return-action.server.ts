import { data, type RouterContextProvider } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { profileUserContext } from "#app/lib/profile-user.server.ts";
import { AUTH_REQUIRED } from "#core/messages/common.ts";
import { RETURN_ERRORS, returnedText } from "#core/messages/returns.ts";
import { positiveIdText } from "#core/schemas/common.ts";
import { returnPreview, returnPurchase } from "#worker/services/shop/return.ts";
import type { ReturnActionResult } from "../components/profile/return-form.tsx";

/**
 * «Вернуть» posted from a profile page (the Корзина, or the purchase history for a gift): the same
 * service as POST /api/purchases/:id/return (decision 111). Without JavaScript nothing was asked
 * yet: the page answers the question and «Да, вернуть» posts again, confirmed (issue 36).
 */
export async function returnAction({
  context,
  request,
}: {
  context: Readonly<RouterContextProvider>;
  request: Request;
}) {
  const user = context.get(profileUserContext);
  if (!user) return data<ReturnActionResult>({ error: AUTH_REQUIRED }, { status: 401 });
  const form = await request.formData();
  const id = positiveIdText.safeParse(form.get("purchase_id"));
  if (form.get("intent") !== "return" || !id.success) {
    return data<ReturnActionResult>({ error: RETURN_ERRORS.badId }, { status: 400 });
  }
  const deps = context.get(depsContext);
  if (form.get("confirmed") !== "1") {
    const preview = await returnPreview(deps, user.id, id.data);
    if (!preview.ok) return data<ReturnActionResult>({ error: preview.error }, { status: preview.status });
    const { purchaseId, itemName, amount, giftTo } = preview;
    return data<ReturnActionResult>({ confirm: { purchaseId, itemName, amount, giftTo } });
  }
  const result = await returnPurchase(deps, user.id, id.data);
  if (!result.ok) return data<ReturnActionResult>({ error: result.error }, { status: result.status });
  // A post without JavaScript renders the layout in this same request: its loaders, run after this,
  // read the player afresh (app/lib/page-request.server.ts), so the new balance shows.
  return data<ReturnActionResult>({ success: returnedText(result.itemName, result.amount, result.giftTo) });
}
