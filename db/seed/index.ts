import { catalogSeedSql } from "./catalog.ts";
import { operatorsSeedSql } from "./operators.ts";
import { playersSeedSql } from "./players.ts";
import { promosSeedSql } from "./promos.ts";
import { serverKeysSeedSql } from "./server-keys.ts";
import { serversSeedSql } from "./servers.ts";

/** Every seed statement, in dependency order. */
export function seedStatements(): string[] {
  return [
    ...serversSeedSql(),
    ...serverKeysSeedSql(),
    ...catalogSeedSql(),
    ...playersSeedSql(),
    ...promosSeedSql(),
    ...operatorsSeedSql(),
  ];
}
