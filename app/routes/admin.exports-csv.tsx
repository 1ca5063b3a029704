import { data, redirect } from "react-router";
import { requireOperator } from "#app/lib/admin/operator.server.ts";
import { depsContext } from "#app/lib/deps-context.server.ts";
import { exportSchema, startExport } from "#worker/services/admin/exports.ts";
import type { Route } from "./+types/admin.exports-csv";

// POST /admin/exports/csv: the CSV itself, streamed as an attachment (decision 110). The form on
// /admin/exports posts here natively, with or without JavaScript, so the browser downloads the file
// and stays on the page. A bad period goes back to the form with the reason.

export async function action({ context, request }: Route.ActionArgs) {
  const operator = await requireOperator(context, request, "exportPurchases");
  const form = Object.fromEntries(await request.formData());
  const input = exportSchema.safeParse(form);
  if (!input.success) {
    const back = new URLSearchParams({ error: "period" });
    for (const name of ["kind", "from", "to"] as const) if (typeof form[name] === "string") back.set(name, form[name]);
    return redirect(`/admin/exports?${back}`, 303);
  }
  const result = await startExport(context.get(depsContext), operator, input.data);
  if (!result.ok && result.status === "parts") {
    // Too many rows for one file here: back to the form, which offers the parts (decision 115).
    const { kind, period } = input.data;
    const back = new URLSearchParams({ kind, from: period.from, to: period.to, rows: String(result.rows) });
    return redirect(`/admin/exports?${back}`, 303);
  }
  if (!result.ok) throw data(result.error, { status: result.status });
  return new Response(result.body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${result.fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

// A GET of the address is no download: back to the form.
export function loader() {
  return redirect("/admin/exports", 303);
}
