import { depsContext } from "#worker/router-context.ts";
import { listPublicServers } from "#worker/services/server-status.ts";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const deps = context.get(depsContext);
  return { servers: await listPublicServers(deps) };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <main>
      <h2>Серверы Rust</h2>
      <ul>
        {loaderData.servers.map((server) => (
          <li key={server.ip_port}>{server.name}</li>
        ))}
      </ul>
    </main>
  );
}
