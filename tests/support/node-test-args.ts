// How every runner here starts Node's test runner: one file at a time (the files share a site and
// its ports), and never waiting forever. A test over its time fails with its name instead of holding
// CI until its limit; once the tests are done the runner exits even if a failed one left a handle open.
export const NODE_TEST_ARGS = ["--test", "--test-concurrency=1", "--test-timeout=600000", "--test-force-exit"];
