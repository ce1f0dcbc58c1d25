// Test harness for deno task serve: the real server process on a random loopback port (the API
// calls are testing/workbench.ts's).
import { fromRoot } from "../tasks/_cli.ts";

export { api, pollUntil, useScripted } from "./workbench.ts";

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
