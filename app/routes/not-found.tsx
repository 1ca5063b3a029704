import { data } from "react-router";

export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return (
    <main>
      <h1>Страница не найдена</h1>
    </main>
  );
}
