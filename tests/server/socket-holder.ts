// `node tests/server/socket-holder.ts PORT COMMAND ARGS…`: systemd's socket activation, as the tests
// need it (decision 137). Listens on 127.0.0.1:PORT and runs COMMAND with that socket as descriptor 3
// and LISTEN_FDS=1, again each time it exits, as `Restart=always` with a `.socket` unit does. It runs
// the command synchronously, so its own event loop never turns and it never accepts a connection:
// they wait in the socket's queue for the command, across its restarts. SIGTERM ends it (no handler
// can run); the command running then goes on until it is stopped too.
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";

const [port, command, ...args] = process.argv.slice(2);
if (!port || !command) throw new Error("usage: node tests/server/socket-holder.ts PORT COMMAND ARGS…");
const server = createServer();
server.listen({ port: Number(port), host: "127.0.0.1", backlog: 511 }, () => {
  const fd = (server as unknown as { _handle: { fd: number } })._handle.fd;
  for (;;) {
    spawnSync(command, args, { stdio: ["ignore", "inherit", "inherit", fd], env: { ...process.env, LISTEN_FDS: "1" } });
  }
});
