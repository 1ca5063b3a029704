// The Node server itself, started by worker/node/server.ts once React knows it runs in production.
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { libsqlPorts, migrateLibsql, openLibsql } from "../adapters/libsql.ts";
import { pageHandlerOf } from "../page-handler.ts";
import { wireDeps } from "../wiring.ts";
import { createNodeApp } from "./app.ts";
import { prepareFileDatabase } from "./database-file.ts";
import { scheduleMinutelyJobs } from "./schedule.ts";
import { loadEnvFile, readNodeSettings, SettingError } from "./settings.ts";
import { shutdownOnSignals } from "./shutdown.ts";

/** Starts the server of the build in `buildDir` (build-node/: client/ and server/ in it, migrations/ beside it). */
export async function startServer(buildDir: URL): Promise<void> {
  loadEnvFile();
  let settings: ReturnType<typeof readNodeSettings>;
  try {
    settings = readNodeSettings(process.env);
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    console.error(`Cannot start: ${error.message}`);
    process.exit(1);
  }

  prepareFileDatabase(settings.database.url);
  const client = await openLibsql(settings.database);
  if (settings.migrateOnStart) {
    await migrateLibsql(client, fileURLToPath(new URL("../migrations", buildDir)));
  }
  const platform = { ...libsqlPorts(client), settings: settings.site };
  const app = createNodeApp({
    pageHandler: pageHandlerOf(() => import("virtual:react-router/server-build"), import.meta.env.MODE),
    platform,
    clientDir: fileURLToPath(new URL("client", buildDir)),
    trustProxy: settings.trustProxy,
  });

  const jobs = scheduleMinutelyJobs(() => wireDeps(platform, { notify: (request) => app.fetch(request) }));
  const server = serve({ fetch: app.fetch, port: settings.port, hostname: settings.host }, (info) => {
    console.log(
      JSON.stringify({
        event: "listening",
        url: `http://${settings.host}:${info.port}`,
        publicUrl: settings.site.PUBLIC_URL,
      }),
    );
    // The server list and the deliveries' maintenance shouldn't wait a minute after a start.
    jobs.trigger();
  });

  shutdownOnSignals(server, async () => {
    await jobs.stop();
    client.close();
  });
}
