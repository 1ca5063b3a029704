import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

const stateDir = process.env.SITE_STATE_DIR;

export default defineConfig({
  plugins: [
    cloudflare({ viteEnvironment: { name: "ssr" }, persistState: stateDir ? { path: stateDir } : true }),
    reactRouter(),
  ],
});
