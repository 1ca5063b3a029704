import { data } from "react-router";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { profileUserContext } from "#app/lib/profile-user.server.ts";
import { PROMO_TEXT, promoSuccessText } from "#core/messages/promos.ts";
import { promoCodeFromForm } from "#core/schemas/promo.ts";
import { clientAddress } from "#worker/services/promos/client-address.ts";
import { redeemPromo } from "#worker/services/promos/redeem.ts";
import { type PromoActionResult, PromoForm } from "../components/profile/promo-form.tsx";
import type { Route } from "./+types/profile.promocodes";

// /promocodes: the activation form. The action calls the same service as POST /api/promos/validate;
// after a success React Router reloads the root loader, so the header balance follows.

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const code = promoCodeFromForm(form);
  const user = context.get(profileUserContext);
  if (!user) return data<PromoActionResult>({ error: PROMO_TEXT.unauthorized, code }, { status: 401 });
  const result = await redeemPromo(context.get(depsContext), { userId: user.id, ip: clientAddress(request), code });
  if (result.ok) {
    // A page post without JavaScript renders the layout in this same request: its loaders, run after
    // this, read the player afresh (app/lib/page-request.server.ts), so the new balance shows.
    return data<PromoActionResult>({ success: promoSuccessText(result.promo) });
  }
  const headers: HeadersInit = result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : {};
  return data<PromoActionResult>(
    result.code ? { error: result.error, code, reason: result.code } : { error: result.error, code },
    { status: result.status, headers },
  );
}

export default function Promocodes({ actionData }: Route.ComponentProps) {
  return (
    <section className="profile-section">
      <PromoForm result={actionData} />
    </section>
  );
}
