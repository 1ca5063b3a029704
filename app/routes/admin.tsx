import { isRouteErrorResponse, Outlet } from "react-router";
import { readConsoleFirst, requireOperator } from "#app/lib/admin/operator.server.ts";
import adminStylesheet from "../components/admin/admin.css?url";
import { AdminNav } from "../components/admin/admin-nav.tsx";
import { ROLE_LABEL } from "../components/admin/format.ts";
import { NotFoundView } from "../components/not-found-view.tsx";
import type { Route } from "./+types/admin";

// The operator console's layout. Each page's loader and action checks the role itself;
// this one only names the operator in the heading.

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: adminStylesheet }];

export const meta: Route.MetaFunction = () => [{ title: "Консоль — Свобода" }, { name: "robots", content: "noindex" }];

// Never kept by a shared cache, whoever asked and whatever the answer (a 404 included).
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const middleware: Route.MiddlewareFunction[] = [
  async (args, next) => {
    await readConsoleFirst(args);
    return next();
  },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const operator = await requireOperator(context, request, "console");
  return { nickname: operator.nickname, role: operator.role };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <main className="container admin-page">
      <div className="admin-head">
        <h1>Консоль оператора</h1>
        <p className="muted">
          {loaderData.nickname} · {ROLE_LABEL[loaderData.role] ?? loaderData.role}
        </p>
      </div>
      <AdminNav role={loaderData.role} />
      <Outlet />
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <main className="container page page--center">
        <h1>Доступ запрещен</h1>
        <p className="muted">Этот раздел консоли доступен только администратору.</p>
      </main>
    );
  }
  // Anyone without a role sees exactly what an unknown address shows.
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundView />;
  throw error;
}
