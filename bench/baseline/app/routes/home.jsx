import { useLoaderData } from "react-router";
import { envContext } from "../../workers/app.js";

export const meta = () => [{ title: "Baseline" }];

export async function loader({ context }) {
  const row = await context.get(envContext).DB.prepare("SELECT 1 AS one").first();
  return { one: row?.one ?? 0 };
}

export default function Home() {
  const { one } = useLoaderData();
  return (
    <main>
      <h1>Bare React Router page</h1>
      <p>D1 answered {one}.</p>
    </main>
  );
}
