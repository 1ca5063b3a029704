import { data } from "react-router";
import { NotFoundView } from "../components/not-found-view.tsx";
import type { Route } from "./+types/not-found";

export const meta: Route.MetaFunction = () => [{ title: "Страница не найдена — Свобода" }];

export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundView />;
}

// The loader always throws a 404; render it here so the shell keeps its header data.
export function ErrorBoundary() {
  return <NotFoundView />;
}
