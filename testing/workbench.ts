// Test helper (not part of the public surface): calls to a served workbench's HTTP API, for the
// tests that start it in process (lib/workbench/serve_test.ts) or as deno task serve
// (testing/serve.ts).
import assert from "node:assert/strict";

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
