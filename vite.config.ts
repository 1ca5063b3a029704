import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// Browser tests and benchmarks serve the build with their own local D1/KV state.
const stateDir = process.env.SITE_STATE_DIR;

export default defineConfig({
  plugins: [
    cloudflare({ viteEnvironment: { name: "ssr" }, persistState: stateDir ? { path: stateDir } : true }),
    reactRouter(),
  ],
});
