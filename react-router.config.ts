import type { Config } from "@react-router/dev/config";

// SITE_RUNTIME=node builds the owner's-own-server target into its own folder (decision 095); not under
// build/, which the Worker build empties.
const node = process.env.SITE_RUNTIME === "node";

export default {
  ssr: true,
  // scripts/build-node.ts builds into a new build-node.<time>/ and then links build-node to it (decision 137).
  ...(node ? { buildDirectory: process.env.NODE_BUILD_DIRECTORY ?? "build-node" } : {}),
} satisfies Config;
