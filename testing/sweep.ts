// The sweep tests' set-up lives with the agents flow's test helpers (testing/agents.ts).
export { type SweepFixture, sweepFixture } from "./agents.ts";
