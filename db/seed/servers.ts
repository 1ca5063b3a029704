import { upsert } from "./sql.ts";

export const seedServers = [
  { id: 1, name: "Свобода #1 | SOLO | Только соло", server_type: "SOLO", ip_port: "185.189.255.10:28015" },
  {
    id: 2,
    name: "Свобода #2 | VANILLA | Ванилла, вайп по четвергам",
    server_type: "VANILLA",
    ip_port: "185.189.255.11:28015",
  },
  { id: 3, name: "Свобода #3 | MAX 2 | Макс. 2 в команде", server_type: "MAX2", ip_port: "185.189.255.12:28015" },
  { id: 4, name: "Свобода #4 | MAX 3 | Макс. 3 в команде", server_type: "MAX3", ip_port: "185.189.255.13:28015" },
  {
    id: 5,
    name: "Свобода #5 | NO LIMIT | x5 лут, без лимита команд",
    server_type: "NO_LIMIT",
    ip_port: "185.189.255.14:28015",
  },
] as const;

export function serversSeedSql(): string[] {
  return seedServers.map((server, index) => upsert("servers", { ...server, sort_order: index }));
}
