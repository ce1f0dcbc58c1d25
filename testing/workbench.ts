// Test helper (not part of the public surface): calls to a served workbench's HTTP API, for the
// tests that start it in process (lib/workbench/serve_test.ts) or as deno task serve
// (testing/serve.ts).
import assert from "node:assert/strict";
import { join } from "node:path";
import { fromRoot } from "../tasks/_cli.ts";
import { startWorkbench, type Workbench } from "../lib/workbench/server.ts";

/** A served workbench: its base URL and, for a process, what it printed on stderr. */
export interface ServedUrl {
  readonly url: string;
  readonly stderr?: () => string;
}

/** One JSON API call: its status and its parsed body. */
export async function api(s: ServedUrl, method: string, path: string, body?: unknown) {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, data: await res.json() };
}

/** Points an agent of the working config at the scripted model, through the config API. */
export async function useScripted(s: ServedUrl, agentId: string): Promise<void> {
  const { data } = await api(s, "GET", "/api/config/agents");
  const agent = data.agents.find((a: { id: string }) => a.id === agentId);
  const put = await api(s, "PUT", `/api/config/agents/${agentId}`, { ...agent, model: "scripted" });
  assert.equal(put.status, 200, JSON.stringify(put.data));
}

/** Polls a run until it reaches one of `states` (its API view), or fails after `timeoutMs`. */
export async function pollUntil(
  s: ServedUrl,
  runId: string,
  states: string[],
  timeoutMs = 120_000,
) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const { data } = await api(s, "GET", `/api/runs/${runId}`);
    if (states.includes(data.state)) return data;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`run ${runId} did not reach ${states.join("/")}: ${s.stderr?.() ?? ""}`);
}

/** Options of {@linkcode startBareWorkbench}: what `startWorkbench` takes beside its folders. */
export type BareWorkbenchOptions = Partial<Parameters<typeof startWorkbench>[0]>;

/**
 * The workbench in process on a random loopback port over a fresh temporary config and results
 * folder (created from the committed examples), with no MCP servers unless `prepareServers` is
 * given; `stop()` closes it and removes the folder.
 */
export async function startBareWorkbench(
  options: BareWorkbenchOptions = {},
): Promise<Workbench & { readonly tmp: string; stop(): Promise<void> }> {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-wb-test-" });
  const wb = await startWorkbench({
    hostname: "127.0.0.1",
    port: 0,
    configDir: join(tmp, "config"),
    resultsDir: join(tmp, "results"),
    agentsExamples: fromRoot("fixtures/agents"),
    suitesExamples: fromRoot("fixtures/suites"),
    schemasDir: fromRoot("lib/agent/schemas"),
    env: {},
    prepareServers: () => Promise.reject(new Error("no MCP servers in this test")),
    log: () => {},
    ...options,
  });
  return Object.assign(wb, {
    tmp,
    async stop() {
      await wb.context.queue.idle();
      await wb.close();
      await Deno.remove(tmp, { recursive: true });
    },
  });
}

/** A raw call: status, headers and body text (for answers that are not JSON, or must be read whole). */
export async function raw(
  s: ServedUrl,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
