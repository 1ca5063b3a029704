import { requireOperator } from "#app/lib/admin/operator.server.ts";
import type { Route } from "./+types/admin.index";

// /admin: the summary (revenue, paying players, top items, the last 30 days).

export async function loader({ context, request }: Route.LoaderArgs) {
  await requireOperator(context, request, "console");
  return null;
}

export default function AdminSummary() {
  return (
    <section className="admin-section" aria-labelledby="summary-title">
      <h2 id="summary-title">Сводка</h2>
    </section>
  );
}
