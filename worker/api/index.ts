import { Hono } from "hono";
import type { AppEnv } from "../hono-env.ts";
import { authApi } from "./auth.ts";
import { gameApi } from "./game.ts";
import { giftsApi } from "./gifts.ts";
import { historyApi } from "./history.ts";
import { inventoryApi } from "./inventory.ts";
import { paymentApi } from "./payment.ts";
import { profileApi } from "./profile.ts";
import { promosApi } from "./promos.ts";
import { purchaseApi } from "./purchase.ts";
import { returnsApi } from "./returns.ts";
import { serverStatusApi } from "./server-status.ts";
import { shopApi } from "./shop.ts";

// The JSON API the pages' browser code and other clients call, mounted at /api.
export const apiApp = new Hono<AppEnv>();

apiApp.route("/", serverStatusApi);
apiApp.route("/", authApi);
apiApp.route("/", profileApi);
apiApp.route("/game", gameApi);
apiApp.route("/", shopApi);
apiApp.route("/", purchaseApi);
apiApp.route("/", returnsApi);
apiApp.route("/", giftsApi);
apiApp.route("/", inventoryApi);
apiApp.route("/", historyApi);
apiApp.route("/", promosApi);
apiApp.route("/", paymentApi);
