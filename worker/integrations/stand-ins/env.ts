import type { Database } from "../../ports/database.ts";
import type { KeyValueStore } from "../../ports/key-value.ts";

/** What the local stand-ins work with, handed to them by the site's wiring. */
export interface StandInEnv {
  db: Database;
  kv: KeyValueStore;
  /** The payment stand-in's own store, outside the site's database, as a real provider's data is (decision 135). */
  paymentsKv: KeyValueStore;
  publicUrl: string;
  steamOpenIdEndpoint: string;
  /** Keys the OpenID stand-in's signatures; the site's own session secret, never used for anything else there. */
  secret: string;
  /** Sends a notification to the site's own webhook, in-process, as the real provider would over the network. */
  notify: (request: Request) => Response | Promise<Response>;
  /** The site's Content-Security-Policy nonce for this answer, for the pages' own <style>. */
  styleNonce?: string;
}
