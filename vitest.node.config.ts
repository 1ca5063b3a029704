import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

// The worker-side tests that must hold on both runtimes, run again on Node over libSQL (one temporary
// database file per test file). `cloudflare:test`, the test platform and the Worker app are swapped
// for their Node versions in tests/runtime/node/; the tests themselves are the same files.
export const BOTH_RUNTIMES = [
  // money
  "tests/purchase-api.test.ts",
  "tests/purchase-form.test.ts",
  "tests/purchase-price-shown.test.ts",
  "tests/payment-standin.test.ts",
  "tests/payment-yookassa.test.ts",
  "tests/payment-refunds.test.ts",
  "tests/payment-recheck.test.ts",
  "tests/payment-after-restore.test.ts",
  "tests/promo-concurrency.test.ts",
  "tests/promo-validate.test.ts",
  "tests/promo-rate-limit.test.ts",
  // sign-in
  "tests/auth-flow.test.ts",
  "tests/auth-sessions.test.ts",
  "tests/auth-sign-in-code.test.ts",
  "tests/auth-steam-profile-budget.test.ts",
  // delivery to the game
  "tests/game-delivery.test.ts",
  "tests/game-delivery-progress.test.ts",
  "tests/game-split-revokes.test.ts",
  "tests/game-signing.test.ts",
  "tests/admin-servers.test.ts",
  "tests/game-keys.test.ts",
  "tests/game-heartbeat.test.ts",
  // when a server counts as alive, the doorbell's longer rule (decision 151)
  "tests/game-liveness.test.ts",
  // where the doorbell rings, and its upgrade refused as a poll is (decision 146)
  "tests/doorbell-rings.test.ts",
  // reads
  "tests/api-basics.test.ts",
  "tests/shop-api.test.ts",
  "tests/shop-search.test.ts",
  "tests/history-endpoints.test.ts",
  "tests/balance-statement.test.ts",
  "tests/inventory-list.test.ts",
  "tests/inventory-states.test.ts",
  "tests/profile-pages.test.ts",
  "tests/profile-paging.test.ts",
  // generated malformed input
  "tests/fuzz-inputs.test.ts",
  "tests/spec-texts.test.ts",
  "tests/seller-details.test.ts",
  "tests/shop-page.test.ts",
  "tests/journey-pages.test.ts",
  "tests/catalog-snapshot.test.ts",
  // pages
  "tests/visitor-page-cache.test.ts",
  "tests/visitor-page-cache-nonce.test.ts",
  "tests/public-origin.test.ts",
  // the operator console's summary (one round trip, decision 117), exports and notifications
  "tests/admin-summary.test.ts",
  "tests/admin-exports.test.ts",
  "tests/csv-cells.test.ts",
  "tests/purchase-returns.test.ts",
  "tests/admin-shop-settings.test.ts",
  "tests/admin-sales.test.ts",
  "tests/sale-parity.test.ts",
  "tests/gifts.test.ts",
  "tests/gift-journey.test.ts",
  "tests/gift-retry.test.ts",
  "tests/gift-lookup-budget.test.ts",
  "tests/admin-discord.test.ts",
  "tests/admin-categories.test.ts",
  // the minutely jobs' lease (decision 121)
  "tests/job-lease.test.ts",
  // the wipe schedule: Intl's Moscow time on Node's ICU as on workerd's (decision 128)
  "tests/wipe-schedule.test.ts",
  "tests/admin-wipe-schedule.test.ts",
  "tests/wipe-pages.test.ts",
  "tests/wipe-sales.test.ts",
  // the fair-play window after a wipe (decision 129)
  "tests/fair-play.test.ts",
  // «до вайпа» as a term (decision 130)
  "tests/until-wipe.test.ts",
  // a restore the site was not told about: the witness beside the database file (decision 133)
  "tests/restore-witness.test.ts",
];

const node = (path: string) => resolve("tests/runtime/node", path);

export default defineConfig({
  resolve: {
    alias: {
      "cloudflare:test": node("cloudflare-test.ts"),
      "#tests/support/platform.ts": node("platform.ts"),
      "#worker/cloudflare/worker-app.ts": node("worker-app.ts"),
    },
  },
  test: {
    name: "node-libsql",
    environment: "node",
    include: [...BOTH_RUNTIMES, "tests/runtime/node/*.test.ts"],
    setupFiles: ["./tests/runtime/node/setup.ts"],
  },
});
