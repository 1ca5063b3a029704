import { catalogSeedSql } from "./catalog.ts";
import { scaledCatalogSql } from "./catalog-scale.ts";
import { deliveriesSeedSql } from "./deliveries.ts";
import { operatorsSeedSql } from "./operators.ts";
import { playersSeedSql } from "./players.ts";
import { promosSeedSql } from "./promos.ts";
import { serverKeysSeedSql } from "./server-keys.ts";
import { serversSeedSql } from "./servers.ts";

/** Every seed statement, in dependency order; `catalogSize` tops the SOLO catalog up to that many items. */
export function seedStatements(options: { catalogSize?: number } = {}): string[] {
  return [
    ...serversSeedSql(),
    ...serverKeysSeedSql(),
    ...catalogSeedSql(),
    ...scaledCatalogSql(options.catalogSize ?? 0),
    ...playersSeedSql(),
    ...promosSeedSql(),
    ...operatorsSeedSql(),
    ...deliveriesSeedSql(),
  ];
}
