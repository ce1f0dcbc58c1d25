// Test harness for deno task serve: the real server process on a random loopback port.
import assert from "node:assert/strict";
import { fromRoot } from "./_cli.ts";

/** Where the tests install the pinned MCP servers (shared with the other agent tests). */
export const INSTALL_DIR = fromRoot(".scratch/servers");

/** A running server process. */
export interface Server {
  readonly url: string;
  readonly child: Deno.ChildProcess;
  readonly stderr: () => string;
  stop(signal?: Deno.Signal): Promise<void>;
}

/** Starts `tasks/serve.ts` on a free port with its own config and results folders. */
export async function serve(configDir: string, resultsDir: string): Promise<Server> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      fromRoot("tasks/serve.ts"),
      "--port",
      "0",
      "--config",
      configDir,
      "--results",
      resultsDir,
      "--install-dir",
      INSTALL_DIR,
      "--env-file",
      "/nonexistent.env",
    ],
    cwd: fromRoot("."),
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let err = "";
  (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) err += chunk;
  })().catch(() => {});
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  let url: string | undefined;
  while (url === undefined) {
    const { done, value } = await lines.read();
    if (done) throw new Error(`serve exited before listening: ${err}`);
    out += value;
    url = /workbench: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1];
  }
  (async () => {
    while (!(await lines.read()).done) { /* drain */ }
  })().catch(() => {});
  return {
    url,
    child,
    stderr: () => err,
    async stop(signal: Deno.Signal = "SIGTERM") {
      try {
        child.kill(signal);
      } catch { /* already gone */ }
      await child.status;
    },
  };
}

/** One JSON API call. */
export async function api(s: Server, method: string, path: string, body?: unknown) {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, data: await res.json() };
}

/** Points an agent of the working config at the scripted model, through the config API. */
export async function useScripted(s: Server, agentId: string) {
  const { data } = await api(s, "GET", "/api/config/agents");
  const agent = data.agents.find((a: { id: string }) => a.id === agentId);
  const put = await api(s, "PUT", `/api/config/agents/${agentId}`, { ...agent, model: "scripted" });
  assert.equal(put.status, 200, JSON.stringify(put.data));
}

/** Polls a run until it reaches one of `states`. */
export async function pollUntil(s: Server, runId: string, states: string[], timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const { data } = await api(s, "GET", `/api/runs/${runId}`);
    if (states.includes(data.state)) return data;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`run ${runId} did not reach ${states.join("/")}: ${s.stderr()}`);
}
