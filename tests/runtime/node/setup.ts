// The Node + libSQL run's setup (vitest.node.config.ts): each test file has a database file of its own
// (database.ts), so it only needs the migrations. tests/setup.ts is workerd's, whose files share one
// database and begin by emptying it through the Worker's bindings, which refuse use here.
import { applyMigrations } from "./database.ts";

await applyMigrations();
