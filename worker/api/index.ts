import { Hono } from "hono";
import type { AppEnv } from "../hono-env.ts";
import { serverStatusApi } from "./server-status.ts";

// The JSON surface of the spec (section 7), mounted at /api.
export const apiApp = new Hono<AppEnv>();

apiApp.route("/", serverStatusApi);
