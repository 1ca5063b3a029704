import type { AckStatus, ServedDelivery } from "./delivery-rules.ts";
import { hmacHex } from "./keys.ts";
import type { WaitingItem } from "./pending.ts";

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

/**
 * Version 3 (plugin 3, decision 124) also covers what the site says ran already (`done`), the lease
 * the plugin reports under and the operator's retries: the plugin skips commands on its word.
 */
export function canonicalDeliveriesV3(deliveries: ServedDelivery[]): string {
  const lines: string[] = ["v3"];
  for (const delivery of deliveries) {
    lines.push(
      delivery.delivery_id,
      delivery.kind,
      delivery.steam_id,
      delivery.requires_online ? "1" : "0",
      delivery.title,
      delivery.duration_days === null ? "" : String(delivery.duration_days),
      String(delivery.lease),
      String(delivery.retry),
      delivery.done.join(","),
      String(delivery.commands.length),
      ...delivery.commands,
    );
  }
  return lines.join("\n");
}

export function queueResponseSignatureV3(
  key: CryptoKey,
  requestSignature: string,
  deliveries: ServedDelivery[],
  resyncFrom: number | null,
): Promise<string> {
  const resync = resyncFrom === null ? "" : String(resyncFrom);
  return hmacHex(key, `${requestSignature}\n${resync}\n${canonicalDeliveriesV3(deliveries)}`);
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

// The answers to /ack and /pending are signed the same way (decision 103), each with its own tag
// line so one kind of answer can never pass for another:
//   ack 200        HMAC(key, `${requestSignature}\nack\n` + per result: delivery_id, status)
//   ack 403/404    HMAC(key, `${requestSignature}\nrefused\n` + the delivery ids)
//   ack 200 (v3)   HMAC(key, `${requestSignature}\nack3\n${ack_seq}\n` + per result: delivery_id, status)
//   ack 400        HMAC(key, `${requestSignature}\ninvalid\n` + the delivery ids refused as malformed)
//   pending 200    HMAC(key, `${requestSignature}\npending\n` + per item: name, duration_days
//                  (decimal, or "" when null), failed ("1"/"0"))
// every value on its own line, joined with "\n", no trailing newline ("" when there are none).

export function canonicalAck(results: { delivery_id: string; status: AckStatus }[]): string {
  return results.flatMap((result) => [result.delivery_id, result.status]).join("\n");
}

export function canonicalPending(items: WaitingItem[]): string {
  return items
    .flatMap((item) => [
      item.name,
      item.duration_days === null ? "" : String(item.duration_days),
      item.failed ? "1" : "0",
    ])
    .join("\n");
}

export function ackResponseSignature(
  key: CryptoKey,
  requestSignature: string,
  results: { delivery_id: string; status: AckStatus }[],
): Promise<string> {
  return hmacHex(key, `${requestSignature}\nack\n${canonicalAck(results)}`);
}

export function ackResponseSignatureV3(
  key: CryptoKey,
  requestSignature: string,
  ackSeq: number,
  results: { delivery_id: string; status: AckStatus }[],
): Promise<string> {
  return hmacHex(key, `${requestSignature}\nack3\n${ackSeq}\n${canonicalAck(results)}`);
}

/** A 400 the plugin may act on (set the one result aside): only when it is ours (decision 124). */
export function invalidAckResponseSignature(key: CryptoKey, requestSignature: string, ids: string[]): Promise<string> {
  return hmacHex(key, `${requestSignature}\ninvalid\n${ids.join("\n")}`);
}

export function refusedAckResponseSignature(key: CryptoKey, requestSignature: string, ids: string[]): Promise<string> {
  return hmacHex(key, `${requestSignature}\nrefused\n${ids.join("\n")}`);
}

export function pendingResponseSignature(
  key: CryptoKey,
  requestSignature: string,
  items: WaitingItem[],
): Promise<string> {
  return hmacHex(key, `${requestSignature}\npending\n${canonicalPending(items)}`);
}
