// The sweep tests' set-up lives with the agents flow's test helpers (lib/flows/_agents_testing.ts).
export { type SweepFixture, sweepFixture } from "../lib/flows/_agents_testing.ts";
