// The Node server itself, started by worker/node/server.ts once React knows it runs in production.

import type { Server } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAdaptorServer } from "@hono/node-server";
import { checkpointWal, libsqlKeyValueFile, libsqlPorts } from "../adapters/libsql.ts";
import { witnessFile } from "../adapters/witness-file.ts";
import { pageHandlerOf } from "../page-handler.ts";
import { markDoorbellClosed } from "../services/game/heartbeat.ts";
import { wireDeps } from "../wiring.ts";
import { createNodeApp } from "./app.ts";
import { databaseFilePath, witnessPathFor } from "./database-file.ts";
import { nodeDoorbell } from "./doorbell.ts";
import { scheduleMinutelyJobs } from "./schedule.ts";
import { loadEnvFile, readNodeSettings, SettingError } from "./settings.ts";
import { shutdownOnSignals } from "./shutdown.ts";
import { openSiteDatabase } from "./site-database.ts";

/** The payment stand-in's own file, in the database's folder (outside production only). */
export const STANDIN_PAYMENTS_FILE = "payment-stand-in.db";

/** Prints each reason as one `Cannot start: …` line and exits 1: no stack trace for an owner to read. */
function refuse(error: unknown): never {
  if (!(error instanceof SettingError)) throw error;
  for (const problem of error.problems) console.error(`Cannot start: ${problem}`);
  process.exit(1);
}

/** The listening socket systemd passes (`LISTEN_FDS=1`: descriptor 3), when it is meant for this process. */
function inheritedSocket(env: NodeJS.ProcessEnv): { fd: number } | null {
  if (env.LISTEN_FDS !== "1") return null;
  if (env.LISTEN_PID && env.LISTEN_PID !== String(process.pid)) return null;
  return { fd: 3 };
}

/** Starts the server of the build in `buildDir` (build-node/: client/ and server/ in it, migrations/ beside it). */
export async function startServer(buildDir: URL): Promise<void> {
  let settings: ReturnType<typeof readNodeSettings>;
  let client: Awaited<ReturnType<typeof openSiteDatabase>>;
  try {
    loadEnvFile();
    settings = readNodeSettings(process.env);
    client = await openSiteDatabase(settings, fileURLToPath(new URL("../migrations", buildDir)));
  } catch (error) {
    refuse(error);
  }
  const databaseFile = databaseFilePath(settings.database.url);
  const ports = libsqlPorts(client);
  const doorbell = nodeDoorbell({ closed: (serverId) => markDoorbellClosed(ports.db, serverId, Date.now()) });
  const platform = {
    doorbell: doorbell.doorbell,
    ...ports,
    settings: settings.site,
    witness: witnessFile(witnessPathFor(settings.database.url)),
    // The payment stand-in's payments, beside the database and never in it: a restore of the site's
    // data leaves them, as YooKassa keeps its own (decision 135). Opened only if the stand-in is used.
    standInKv:
      databaseFile === null ? undefined : libsqlKeyValueFile(join(dirname(databaseFile), STANDIN_PAYMENTS_FILE)),
  };
  const app = createNodeApp({
    pageHandler: pageHandlerOf(() => import("virtual:react-router/server-build"), import.meta.env.MODE),
    platform,
    clientDir: fileURLToPath(new URL("client", buildDir)),
    trustProxy: settings.trustProxy,
  });

  const jobs = scheduleMinutelyJobs(() => wireDeps(platform, { notify: (request) => app.fetch(request) }));
  const address = `${settings.host}:${settings.port}`;
  const server = createAdaptorServer({ fetch: app.fetch });
  doorbell.listen(server as Server, app.fetch);
  // systemd's socket activation (rust-site.socket, decision 137): the listening socket is systemd's and
  // outlives the process, so during a restart connections wait in its queue instead of being refused.
  const socket = inheritedSocket(process.env);
  server.listen(socket ?? { port: settings.port, host: settings.host }, () => {
    const info = server.address();
    const url = typeof info === "object" && info ? `http://${info.address}:${info.port}` : `http://${address}`;
    console.log(
      JSON.stringify({
        event: "listening",
        url,
        publicUrl: settings.site.PUBLIC_URL,
        ...(socket ? { socket: "systemd" } : {}),
      }),
    );
    // A start runs the minutely jobs at once rather than at the next tick (under the same lease):
    // the server list, the deliveries' maintenance and, after a kill, the minute the dead process left.
    void jobs.trigger();
  });
  server.once("error", (error: NodeJS.ErrnoException) => {
    client.close();
    const why: Record<string, string> = {
      EADDRINUSE: `${address} is already in use (another instance of the site, or another program, listens there); stop it or choose another PORT`,
      EACCES: `${address} needs privileges this user lacks (ports below 1024); choose PORT=3000 behind a proxy`,
      EADDRNOTAVAIL: `${address} is not an address of this machine; check HOST`,
    };
    refuse(
      new SettingError(
        `${error.code === "EADDRNOTAVAIL" ? "HOST" : "PORT"}: ${why[error.code ?? ""] ?? error.message}`,
      ),
    );
  });

  shutdownOnSignals(
    server,
    async () => {
      await jobs.stop();
      // A clean stop leaves the database in its one file (an empty WAL): `cp` or a restore beside a
      // stopped server then can't pair the file with an older WAL.
      if (databaseFilePath(settings.database.url) !== null) {
        await checkpointWal(client).catch((error) =>
          console.error(JSON.stringify({ event: "checkpoint_failed", error: String(error) })),
        );
      }
      client.close();
    },
    doorbell.close,
  );
}
