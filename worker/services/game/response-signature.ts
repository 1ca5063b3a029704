import type { ServedDelivery } from "./deliveries.ts";
import { hmacHex } from "./keys.ts";

// The queue answer carries console commands. The plugin runs them only if this signature
// matches: HMAC over the request's own signature (binding the answer to that request, so an
// old answer can't be replayed) and a line-per-field form of the deliveries that both sides
// build from the parsed JSON (no dependence on how either side serializes JSON).
export function canonicalDeliveries(deliveries: ServedDelivery[]): string {
  const lines: string[] = [];
  for (const delivery of deliveries) {
    lines.push(
      delivery.delivery_id,
      delivery.kind,
      delivery.steam_id,
      delivery.requires_online ? "1" : "0",
      String(delivery.commands.length),
      ...delivery.commands,
    );
  }
  return lines.join("\n");
}

/**
 * Version 2 also covers what the plugin shows the player (the title and the duration), so the
 * chat message is as trustworthy as the commands. Plugin 1.x checks `response_signature` (v1).
 */
export function canonicalDeliveriesV2(deliveries: ServedDelivery[]): string {
  const lines: string[] = ["v2"];
  for (const delivery of deliveries) {
    lines.push(
      delivery.delivery_id,
      delivery.kind,
      delivery.steam_id,
      delivery.requires_online ? "1" : "0",
      delivery.title,
      delivery.duration_days === null ? "" : String(delivery.duration_days),
      String(delivery.commands.length),
      ...delivery.commands,
    );
  }
  return lines.join("\n");
}

export function queueResponseSignature(
  key: CryptoKey,
  requestSignature: string,
  deliveries: ServedDelivery[],
): Promise<string> {
  return hmacHex(key, `${requestSignature}\n${canonicalDeliveries(deliveries)}`);
}

export function queueResponseSignatureV2(
  key: CryptoKey,
  requestSignature: string,
  deliveries: ServedDelivery[],
): Promise<string> {
  return hmacHex(key, `${requestSignature}\n${canonicalDeliveriesV2(deliveries)}`);
}
