import type { CloudflareBindings } from "./adapters/cloudflare.ts";
import type { Settings } from "./settings.ts";

/** What the Worker receives: its bindings beside the settings. */
export interface Env extends Settings, CloudflareBindings {}
