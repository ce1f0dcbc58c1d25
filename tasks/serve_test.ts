// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task serve as a process: the real server on a random loopback port, real MCP servers
// from npm, the scripted local model. A server killed mid-run (SIGKILL) shows the run as
// interrupted after a restart and resumes it without losing or duplicating a case; --host beyond
// loopback without a token exits 2. A run over the API compared with the agents flow is tested
// in process in lib/workbench/serve_test.ts.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fromRoot } from "./_cli.ts";
import { api, pollUntil, serve, useScripted } from "../testing/serve.ts";
import { readRecords, recordKey } from "../testing/agents.ts";

Deno.test({
  name:
    "serve: a server killed mid-run shows the run interrupted after restart and resumes it without losing or duplicating a case",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-serve-test-" });
  const configDir = join(tmp, "config");
  const resultsDir = join(tmp, "results");
  let server = await serve(configDir, resultsDir);
  try {
    await useScripted(server, "fs-terse-sequential");
    const start = await api(server, "POST", "/api/runs", {
      suiteId: "fs-basics",
      agents: [{ agentId: "fs-terse-sequential" }],
      repetitions: 6,
      concurrency: 1,
    });
    const runId: string = start.data.runId;
    // Kill the server (SIGKILL: no cleanup) once two cases are on disk.
    const reader = (await fetch(`${server.url}/api/runs/${runId}/events`)).body!
      .pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while ((seen.match(/^event: case$/gm)?.length ?? 0) < 2) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += value;
    }
    await server.stop("SIGKILL");
    await reader.cancel().catch(() => {});
    const runDir = join(resultsDir, "runs", runId);
    const before = await readRecords(runDir);
    assert.ok(before.length >= 2 && before.length < 18, `${before.length} cases before the kill`);

    server = await serve(configDir, resultsDir);
    const after = (await api(server, "GET", `/api/runs/${runId}`)).data;
    assert.equal(after.state, "interrupted");
    assert.equal(after.completed, before.length);
    assert.equal(after.planned, 18);
    const resume = await api(server, "POST", `/api/runs/${runId}/resume`);
    assert.equal(resume.status, 202, JSON.stringify(resume.data));
    const done = await pollUntil(server, runId, ["completed", "failed"]);
    assert.equal(done.state, "completed", done.failure);
    const all = await readRecords(runDir);
    assert.equal(all.length, 18);
    assert.equal(new Set(all.map(recordKey)).size, 18, "no case recorded twice");
    assert.deepEqual(all.slice(0, before.length), before, "recorded cases kept as they were");
    const runJson = JSON.parse(
      await Deno.readTextFile(join(runDir, "run.json")),
    );
    assert.equal(runJson.status, "complete");
    assert.equal(runJson.sessions.length, 2);
  } finally {
    await server.stop();
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("serve: --host beyond loopback without a token exits 2 before listening", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", fromRoot("tasks/serve.ts"), "--host", "0.0.0.0", "--port", "0"],
    env: { MCPMETER_TOKEN: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 2);
  assert.match(new TextDecoder().decode(out.stderr), /needs? a token|set a token/);
});

Deno.test("serve: --host beyond loopback with a short token exits 2, naming its length and not its value", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", fromRoot("tasks/serve.ts"), "--host", "0.0.0.0", "--port", "0"],
    env: { MCPMETER_TOKEN: "hunter2" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 2, stderr);
  assert.match(stderr, /the token is 7 characters, fewer than 16/);
  assert.ok(
    !stderr.includes("hunter2") && !new TextDecoder().decode(out.stdout).includes("hunter2"),
  );
});

Deno.test({
  name:
    "serve: bound to 0.0.0.0 it prints a URL that opens (not http://0.0.0.0), answers to this machine's addresses and still refuses other Hosts",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-serve-wild-" });
    const token = "0123456789abcdef0123";
    // deno task serve: the permissions deno.json declares (sys for the machine's addresses).
    const child = new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "serve", "--host", "0.0.0.0", "--port", "0", "--config"].concat(
        join(dir, "config"),
        "--results",
        join(dir, "results"),
        "--env-file",
        "/nonexistent.env",
      ),
      cwd: fromRoot("."),
      env: { NO_COLOR: "1", MCPMETER_TOKEN: token },
      stdout: "piped",
      stderr: "null",
    }).spawn();
    try {
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let out = "";
      while (!/token required/.test(out)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`serve exited before listening:\n${out}`);
        out += value;
      }
      reader.releaseLock();
      const url = /workbench: (http:\/\/[^/\s]+)\//.exec(out)![1];
      assert.doesNotMatch(url, /0\.0\.0\.0/);
      assert.ok(!out.includes(token), "the banner never prints the token");
      const port = new URL(url).port;
      const addresses = Deno.networkInterfaces().filter((n) =>
        n.family === "IPv4" && !n.address.startsWith("127.")
      ).map((n) => n.address);
      // The printed URL is the machine's first IPv4 address when it has one off loopback.
      assert.equal(new URL(url).hostname, addresses[0] ?? "127.0.0.1");
      assert.match(out, new RegExp(`on this machine also http://127\\.0\\.0\\.1:${port}/`));
      // A raw request, since fetch() sends the URL's own Host whatever the headers say.
      const open = async (target: string, host = new URL(target).host): Promise<number> => {
        const conn = await Deno.connect({ hostname: new URL(target).hostname, port: +port });
        try {
          await conn.write(new TextEncoder().encode(
            `GET /?token=${token} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
          ));
          const buf = new Uint8Array(64);
          const n = (await conn.read(buf)) ?? 0;
          return Number(
            /^HTTP\/1\.1 (\d{3})/.exec(new TextDecoder().decode(buf.subarray(0, n)))![1],
          );
        } finally {
          conn.close();
        }
      };
      // The token link of the banner: a redirect that sets the cookie (it was 403 for the Host).
      assert.equal(await open(url), 303);
      for (const a of addresses) assert.equal(await open(`http://${a}:${port}`), 303);
      assert.equal(await open(`http://127.0.0.1:${port}`, `${Deno.hostname()}:${port}`), 303);
      // A name of another machine (a rebinding page's) is still refused.
      assert.equal(await open(`http://127.0.0.1:${port}`, `evil.example:${port}`), 403);
    } finally {
      child.kill("SIGTERM");
      await child.status;
      await child.stdout.cancel().catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "serve: a bench started on the Catalog page over a captured catalog scores retrieval on the golden set that names it",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const { writeMiniCatalog, writeMiniGolden } = await import("../testing/catalogs.ts");
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-serve-catalog-" });
  const resultsDir = join(tmp, "results");
  await writeMiniCatalog(join(resultsDir, "captures"), "mine");
  await Deno.mkdir(join(resultsDir, "golden"), { recursive: true });
  await writeMiniGolden(join(resultsDir, "golden", "mine.test.json"), "mine");
  const server = await serve(join(tmp, "config"), resultsDir);
  try {
    const started = await api(server, "POST", "/api/catalog/bench", { corpus: "captures/mine" });
    assert.equal(started.status, 202, JSON.stringify(started.data));
    assert.deepEqual(started.data.golden, [join(resultsDir, "golden", "mine.test.json")]);
    let job: { state: string; retrievalRows: number | null; log: string } | undefined;
    for (let i = 0; i < 600 && job?.state !== "completed" && job?.state !== "failed"; i++) {
      await new Promise((r) => setTimeout(r, 500));
      job = (await api(server, "GET", "/api/catalog/bench")).data.jobs[0];
    }
    assert.equal(job?.state, "completed", job?.log);
    const report = JSON.parse(
      await Deno.readTextFile(join(started.data.outDir, "report.json")),
    );
    const scored = report.retrieval.filter((r: { goldenSetId: string }) =>
      r.goldenSetId === "mine.test"
    );
    assert.ok(scored.length > 0, `retrieval rows: ${report.retrieval.length}`);
    assert.equal(job?.retrievalRows, report.retrieval.length);
    assert.ok(scored.every((r: { corpusId: string }) => r.corpusId === "mine"));
  } finally {
    await server.stop();
    await Deno.remove(tmp, { recursive: true });
  }
});
