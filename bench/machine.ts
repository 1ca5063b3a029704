import os from "node:os";

/** The machine a measurement ran on, for the report's heading. */
export function machineDescription(): string {
  const cpus = os.cpus();
  return (
    `${cpus[0]?.model ?? "unknown CPU"} × ${cpus.length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ` +
    `${os.type()} ${os.release()}, Node ${process.version}`
  );
}
