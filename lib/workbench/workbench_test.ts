// The workbench over real HTTP on a random loopback port, with a stand-in runner (the real
// lib/agent runner with MCP servers and the scripted model is exercised in serve_test.ts):
// config round trips and refusals, run-request validation, the queue, and every security rule.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CaseRecord } from "../agent/types.ts";
import { caseRecord } from "../../testing/records.ts";
import { writeSyntheticRun } from "../../testing/synthetic_runs.ts";
import { type Runner } from "./queue.ts";
import { startWorkbench, type Workbench } from "./server.ts";
import { progressOf, runState } from "./run_store.ts";
import { summarizeRun } from "./comparison.ts";
import type { BenchService } from "./app.ts";

const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

/** Writes one passing record per planned case, no MCP or model involved. */
function recordingRunner(gate?: Promise<void>): Runner {
  return {
    async run(job, onRecord) {
      await gate;
      const path = join(job.runDir, "cases.jsonl");
      const have = await Deno.readTextFile(path).catch(() => "");
      const done = new Set(
        have.split("\n").filter(Boolean).map((l) => {
          const r = JSON.parse(l);
          return `${r.agentId}/${r.caseId}/${r.repetition}`;
        }),
      );
      await Deno.writeTextFile(
        join(job.runDir, "run.json"),
        JSON.stringify({
          status: "running",
          // What the real runner writes first (lib/agent run.schema.json requires it).
          startedAt: job.sidecar.createdAt,
          plannedCases: job.sidecar.agents.length * job.sidecar.suite.cases.length *
            job.sidecar.request.repetitions,
          agents: job.sidecar.agents,
          suite: job.sidecar.suite,
        }),
      );
      for (const a of job.sidecar.agents) {
        for (const k of job.sidecar.suite.cases) {
          for (let rep = 0; rep < job.sidecar.request.repetitions; rep++) {
            if (done.has(`${a.id}/${k.id}/${rep}`)) continue;
            const r = caseRecord({
              agentId: a.id,
              caseId: k.id,
              repetition: rep,
              wallMs: 10,
              llmMs: 8,
              toolMs: 1,
              costUsd: 0.001,
            });
            await Deno.writeTextFile(path, JSON.stringify(r) + "\n", { append: true });
            onRecord(r);
          }
        }
      }
      const doc = JSON.parse(await Deno.readTextFile(join(job.runDir, "run.json")));
      await Deno.writeTextFile(
        join(job.runDir, "run.json"),
        JSON.stringify({ ...doc, status: "complete" }),
      );
    },
  };
}

async function start(
  options: {
    token?: string;
    runner?: Runner;
    hostname?: string;
    bench?: BenchService;
    isoNow?: () => string;
  } = {},
): Promise<Workbench & { tmp: string }> {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-wb-test-" });
  const wb = await startWorkbench({
    hostname: options.hostname ?? "127.0.0.1",
    port: 0,
    ...(options.token ? { token: options.token } : {}),
    configDir: join(tmp, "config"),
    resultsDir: join(tmp, "results"),
    agentsExamples: root("fixtures/agents"),
    suitesExamples: root("fixtures/suites"),
    schemasDir: root("lib/agent/schemas"),
    env: {},
    runner: options.runner ?? recordingRunner(),
    prepareServers: () => Promise.reject(new Error("no MCP servers in this test")),
    ...(options.bench ? { bench: options.bench } : {}),
    ...(options.isoNow ? { isoNow: options.isoNow } : {}),
  });
  return Object.assign(wb, { tmp });
}

/** Waits for the queue (a run stuck on a gate fails the test within 60 s instead of hanging). */
async function stop(wb: Workbench & { tmp: string }) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the run queue did not go idle in 60 s")), 60_000);
  });
  try {
    await Promise.race([wb.context.queue.idle(), limit]);
  } finally {
    clearTimeout(timer);
    await wb.close();
    await Deno.remove(wb.tmp, { recursive: true });
  }
}

async function call(
  wb: Workbench,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${wb.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(text);
  } catch { /* not JSON */ }
  return { status: res.status, data, text, headers: res.headers };
}

Deno.test("workbench: first start copies the examples into the config folder and leaves the fixtures alone", async () => {
  const before = await Deno.readTextFile(root("fixtures/agents/models.json"));
  const wb = await start();
  try {
    assert.ok(wb.context.config.bootstrapped);
    const models = await call(wb, "GET", "/api/config/models");
    const ids = (models.data.models as { id: string }[]).map((m) => m.id);
    assert.deepStrictEqual(ids, [
      "claude",
      "gpt",
      "gpt-responses",
      "ollama",
      "judge",
      "openai-embed",
      "ollama-embed",
      "scripted",
      "scripted-openai",
    ]);
    const suites = await call(wb, "GET", "/api/suites");
    assert.deepStrictEqual(
      (suites.data.suites as { id: string }[]).map((s) => s.id),
      ["everything-tools", "fs-basics", "memory-graph", "sqlite-shop"],
    );
    assert.deepStrictEqual(await Deno.readTextFile(root("fixtures/agents/models.json")), before);
    // `${VAR}` references are shown as written.
    assert.deepStrictEqual(
      (models.data.models as { apiKey: string }[])[0].apiKey,
      "${ANTHROPIC_API_KEY}",
    );
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: an agent PUT round-trips; an invalid one is refused with its field and the file is unchanged", async () => {
  const wb = await start();
  try {
    const file = join(wb.context.config.dir, "agents", "fs-terse-sequential.json");
    const got = await call(wb, "GET", "/api/config/agents");
    const agent = (got.data.agents as Record<string, unknown>[]).find((a) =>
      a.id === "fs-terse-sequential"
    )!;
    const edited = { ...agent, model: "scripted", maxIterations: 4 };
    const ok = await call(wb, "PUT", "/api/config/agents/fs-terse-sequential", edited);
    assert.deepStrictEqual(ok.status, 200);
    assert.deepStrictEqual(JSON.parse(await Deno.readTextFile(file)), edited);
    const again = await call(wb, "GET", "/api/config/agents");
    assert.deepStrictEqual(
      (again.data.agents as Record<string, unknown>[]).find((a) => a.id === "fs-terse-sequential"),
      edited,
    );

    const bytes = await Deno.readTextFile(file);
    for (
      const [bad, field] of [
        [{ ...edited, maxIterations: 0 }, "maxIterations"],
        [{ ...edited, exposure: "sideways" }, "exposure"],
        [{ ...edited, model: "nope" }, "model"],
        [{ ...edited, mcpServers: ["fs", "ghost"] }, "mcpServers[1]"],
        [{ ...edited, colour: "blue" }, "colour"],
        [{ ...edited, systemPromptFile: "../../../etc/passwd" }, "systemPromptFile"],
      ] as const
    ) {
      const r = await call(wb, "PUT", "/api/config/agents/fs-terse-sequential", bad);
      assert.deepStrictEqual(r.status, 400, JSON.stringify(bad));
      assert.deepStrictEqual(r.data.field, field);
      assert.deepStrictEqual(await Deno.readTextFile(file), bytes);
    }
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: models keep secrets: a ${VAR:-default} key default is never returned and survives a PUT of the redacted view", async () => {
  const wb = await start();
  try {
    const path = join(wb.context.config.dir, "models.json");
    const doc = JSON.parse(await Deno.readTextFile(path));
    doc.models[1].apiKey = "${OPENAI_API_KEY:-sk-live-do-not-show-1234}";
    doc.models[2].apiKey = "${OLLAMA_API_KEY:-ollama-secret-default}";
    await Deno.writeTextFile(path, JSON.stringify(doc));
    const shown = await call(wb, "GET", "/api/config/models");
    assert.ok(!shown.text.includes("sk-live-do-not-show-1234"));
    assert.ok(!shown.text.includes("ollama-secret-default"));
    const models = shown.data.models as { apiKey: string }[];
    assert.deepStrictEqual(models[1].apiKey, "${OPENAI_API_KEY:-[REDACTED]}");
    assert.deepStrictEqual(models[2].apiKey, "${OLLAMA_API_KEY:-[REDACTED]}");
    const put = await call(wb, "PUT", "/api/config/models", shown.data);
    assert.deepStrictEqual(put.status, 200, put.text);
    const stored = JSON.parse(await Deno.readTextFile(path));
    assert.deepStrictEqual(stored.models[1].apiKey, "${OPENAI_API_KEY:-sk-live-do-not-show-1234}");
    assert.deepStrictEqual(stored.models[2].apiKey, "${OLLAMA_API_KEY:-ollama-secret-default}");
    // A bad price is refused on its field; the file stays as it was.
    const before = await Deno.readTextFile(path);
    const bad = structuredClone(shown.data) as { models: { pricing: Record<string, unknown> }[] };
    bad.models[0].pricing.inputUsdPerMTok = "three";
    const r = await call(wb, "PUT", "/api/config/models", bad);
    assert.deepStrictEqual(r.status, 400);
    assert.deepStrictEqual(r.data.field, "models[0].pricing.inputUsdPerMTok");
    assert.deepStrictEqual(await Deno.readTextFile(path), before);
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: servers keep secrets written in args and URLs: never returned, kept by a PUT of the redacted view", async () => {
  // The env and headers values were hidden, but a key written as an argument or in the URL (the
  // capture treats both as secrets) was returned as written, on the API and the Config page.
  const wb = await start();
  try {
    const path = join(wb.context.config.dir, "servers.json");
    const doc = JSON.parse(await Deno.readTextFile(path));
    const args = [
      "x.js",
      "--api-key=sk-live-args-secret-1",
      "--token",
      "tok-args-secret-2",
      "${SERVICE_TOKEN:-tok-default-secret-3}",
      "--verbose",
    ];
    const url = "https://u:pw-url-secret-4@example.com/mcp?api_key=key-url-secret-5&x=1";
    doc.mcpServers.leaky = { command: "node", args };
    doc.mcpServers.remote = { type: "http", url };
    await Deno.writeTextFile(path, JSON.stringify(doc));
    const secrets = [1, 2, 3, 4, 5].map((i) => `secret-${i}`);
    for (const page of ["/api/config/servers", "/config?tab=servers"]) {
      const r = await call(wb, "GET", page);
      for (const secret of secrets) assert.ok(!r.text.includes(secret), `${page}: ${secret}`);
    }
    const shown = await call(wb, "GET", "/api/config/servers");
    const servers = shown.data.mcpServers as Record<string, { args?: string[]; url?: string }>;
    assert.deepStrictEqual(servers.leaky.args, [
      "x.js",
      "--api-key=[REDACTED]",
      "--token",
      "[REDACTED]",
      "${SERVICE_TOKEN:-[REDACTED]}",
      "--verbose",
    ]);
    assert.deepStrictEqual(
      servers.remote.url,
      "https://u:[REDACTED]@example.com/mcp?api_key=[REDACTED]&x=1",
    );
    const put = await call(wb, "PUT", "/api/config/servers", shown.data);
    assert.deepStrictEqual(put.status, 200, put.text);
    const stored = JSON.parse(await Deno.readTextFile(path));
    assert.deepStrictEqual(stored.mcpServers.leaky.args, args);
    assert.deepStrictEqual(stored.mcpServers.remote.url, url);
    // A redacted value sent where the stored one differs cannot be restored: 400, nothing written.
    const before = await Deno.readTextFile(path);
    const moved = structuredClone(shown.data) as typeof shown.data;
    (moved.mcpServers as Record<string, { args: string[] }>).leaky.args.splice(1, 0, "--debug");
    const r = await call(wb, "PUT", "/api/config/servers", moved);
    assert.deepStrictEqual(r.status, 400, r.text);
    assert.deepStrictEqual(r.data.field, "mcpServers.leaky.args.2");
    assert.deepStrictEqual(await Deno.readTextFile(path), before);
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: the Models form shows each model's own provider selected (a save sends back what it shows)", async () => {
  const wb = await start();
  try {
    const path = join(wb.context.config.dir, "models.json");
    const doc = JSON.parse(await Deno.readTextFile(path));
    doc.models[0].provider = "openai-responses";
    doc.models[1].provider = "some-future-provider";
    await Deno.writeTextFile(path, JSON.stringify(doc));
    const page = await call(wb, "GET", "/config?tab=models");
    const shown = [...page.text.matchAll(/<fieldset class="card model"[\s\S]*?<\/fieldset>/g)].map(
      (m) => /<select name="provider">[\s\S]*?<option selected>([^<]*)</.exec(m[0])?.[1],
    );
    assert.deepStrictEqual(shown, doc.models.map((m: { provider: string }) => m.provider));
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: a servers or models PUT that drops what an agent uses is refused, and nothing is written", async () => {
  const wb = await start();
  try {
    const path = join(wb.context.config.dir, "servers.json");
    const before = await Deno.readTextFile(path);
    const shown = await call(wb, "GET", "/api/config/servers");
    // Only sqlite-terse-sequential uses "sqlite" (fixtures/agents).
    const without = structuredClone(shown.data) as { mcpServers: Record<string, unknown> };
    delete without.mcpServers.sqlite;
    const r = await call(wb, "PUT", "/api/config/servers", without);
    // The document is valid; it conflicts with an agent: 409.
    assert.deepStrictEqual(r.status, 409, r.text);
    assert.deepStrictEqual(r.data.field, "mcpServers");
    assert.match(
      r.data.error as string,
      /agent "sqlite-terse-sequential" uses server "sqlite", which this write drops/,
    );
    assert.deepStrictEqual(await Deno.readTextFile(path), before);
    // The same document with every server kept is saved.
    const same = await call(wb, "PUT", "/api/config/servers", shown.data);
    assert.deepStrictEqual(same.status, 200, same.text);
    // The like change to the model registry, as before.
    const models = await call(wb, "GET", "/api/config/models");
    const kept = (models.data.models as { id: string }[]).filter((m) => m.id !== "gpt");
    const m = await call(wb, "PUT", "/api/config/models", { ...models.data, models: kept });
    assert.deepStrictEqual(m.status, 409, m.text);
    assert.match(m.data.error as string, /uses model "gpt", which this write drops/);
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: prompts and suites stay inside the config folder", async () => {
  const wb = await start();
  try {
    const outside = join(wb.tmp, "outside.md");
    await Deno.writeTextFile(outside, "secret outside text");
    await Deno.symlink(outside, join(wb.context.config.dir, "agents", "prompts", "link.md"));
    const file = join(wb.context.config.dir, "agents", "fs-terse-sequential.json");
    const agent = JSON.parse(await Deno.readTextFile(file));
    await Deno.writeTextFile(
      file,
      JSON.stringify({ ...agent, systemPromptFile: "prompts/link.md" }),
    );
    const viaLink = await call(wb, "GET", "/api/config/prompts/fs-terse-sequential");
    assert.deepStrictEqual(viaLink.status, 400);
    assert.ok(!viaLink.text.includes("secret outside text"));
    const put = await call(wb, "PUT", "/api/config/prompts/fs-terse-sequential", { content: "x" });
    assert.deepStrictEqual(put.status, 400);
    assert.deepStrictEqual(await Deno.readTextFile(outside), "secret outside text");
    for (const id of ["..%2F..%2Fetc%2Fpasswd", "..", "%2Fetc%2Fpasswd"]) {
      const r = await call(wb, "GET", `/api/config/prompts/${id}`);
      assert.ok(r.status === 400 || r.status === 404, `${id}: ${r.status}`);
      const s = await call(wb, "PUT", `/api/suites/${id}`, { id: "x", description: "", cases: [] });
      assert.ok(s.status === 400 || s.status === 404, `${id}: ${s.status}`);
    }
    // A prompt PUT and GET round-trip for an agent whose file is inside.
    await Deno.writeTextFile(file, JSON.stringify(agent));
    const ok = await call(wb, "PUT", "/api/config/prompts/fs-terse-sequential", {
      content: "Be brief.",
    });
    assert.deepStrictEqual(ok.data.content, "Be brief.");
    assert.deepStrictEqual(
      await Deno.readTextFile(join(wb.context.config.dir, "agents", "prompts", "terse.md")),
      "Be brief.",
    );
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: a body nested deeper than any document the API takes is a 400 that says so", async () => {
  // 100,000 nested arrays (200 kB, under the size limit) reached the suite validator, whose
  // recursion overflowed: the 400 said "Maximum call stack size exceeded".
  const wb = await start();
  try {
    const deep = `{"id": "deep", "description": "d", "cases": ${"[".repeat(100_000)}${
      "]".repeat(100_000)
    }}`;
    for (const [method, path] of [["POST", "/api/suites"], ["PUT", "/api/config/servers"]]) {
      const r = await call(wb, method, path, deep);
      assert.deepStrictEqual(r.status, 400, r.text);
      assert.deepStrictEqual(
        r.data.error,
        "request body nests 100001 levels deep; the API takes at most 128",
      );
    }
    // At the limit it is read, and the document's own rules answer.
    const ok = await call(
      wb,
      "POST",
      "/api/suites",
      `{"id": "x", "cases": ${"[".repeat(127)}${"]".repeat(127)}}`,
    );
    assert.deepStrictEqual(ok.status, 400, ok.text);
    assert.doesNotMatch(String(ok.data.error), /nests/);
    assert.deepStrictEqual((await call(wb, "GET", "/api/suites/deep")).status, 404);
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: suite CRUD validates against the suite schema", async () => {
  const wb = await start();
  try {
    const suite = {
      id: "tiny",
      description: "one case",
      cases: [{ id: "c1", question: "2+2?", criterion: { type: "regex", pattern: "^4$" } }],
    };
    assert.deepStrictEqual((await call(wb, "POST", "/api/suites", suite)).status, 201);
    assert.deepStrictEqual((await call(wb, "POST", "/api/suites", suite)).status, 409);
    const bad = { ...suite, cases: [{ ...suite.cases[0], criterion: { type: "regex" } }] };
    const r = await call(wb, "PUT", "/api/suites/tiny", bad);
    assert.deepStrictEqual(r.status, 400);
    assert.deepStrictEqual(r.data.field, "cases[0].criterion.pattern");
    assert.deepStrictEqual((await call(wb, "GET", "/api/suites/tiny")).data.suite, suite);
    assert.deepStrictEqual(
      (await call(wb, "PUT", "/api/suites/tiny", { ...suite, id: "other" })).status,
      400,
    );
    assert.deepStrictEqual((await call(wb, "DELETE", "/api/suites/tiny")).status, 204);
    assert.deepStrictEqual((await call(wb, "GET", "/api/suites/tiny")).status, 404);
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: a run request names the field it cannot use", async () => {
  const wb = await start();
  try {
    const cases: [unknown, string][] = [
      [{ suiteId: "nope" }, "suiteId"],
      [{ suiteId: "fs-basics", agents: [{ agentId: "ghost" }] }, "agents[0].agentId"],
      [
        { suiteId: "fs-basics", agents: [{ agentId: "fs-terse-sequential", version: "7" }] },
        "agents[0].version",
      ],
      [{ suiteId: "fs-basics", repetitions: 0 }, "repetitions"],
      [{ suiteId: "fs-basics", concurrency: 1.5 }, "concurrency"],
      [{ suiteId: "fs-basics", model: "nope" }, "model"],
      [{ suiteId: "fs-basics", agentIds: ["fs-terse-sequential"] }, "agentIds"],
      [{ suiteId: "fs-basics", agents: [] }, "agents"],
    ];
    for (const [body, field] of cases) {
      const r = await call(wb, "POST", "/api/runs", body);
      assert.deepStrictEqual(r.status, 400, JSON.stringify(body));
      assert.deepStrictEqual(r.data.field, field);
    }
    const bad = await call(wb, "POST", "/api/runs", "{not json");
    assert.deepStrictEqual(bad.status, 400);
    assert.match(String(bad.data.error), /^request body is not valid JSON: /);
    assert.ok(!bad.text.includes("    at "), "no stack trace");
    assert.deepStrictEqual(
      (await call(wb, "GET", "/api/runs")).data,
      [] as unknown as Record<string, unknown>,
    );
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: runs are queued, one at a time by default, and their state comes from the folder", async () => {
  let open!: () => void;
  const gate = new Promise<void>((r) => open = r);
  // A fixed clock: both runs are named in the same second whatever the machine's speed.
  const wb = await start({
    runner: recordingRunner(gate),
    isoNow: () => "2026-12-03T14:05:09.123Z",
  });
  try {
    const body = {
      suiteId: "fs-basics",
      agents: [{ agentId: "fs-terse-sequential" }, { agentId: "fs-careful-sequential" }],
      repetitions: 2,
    };
    const a = await call(wb, "POST", "/api/runs", body);
    const b = await call(wb, "POST", "/api/runs", body);
    assert.deepStrictEqual(a.status, 201);
    const idA = String(a.data.runId), idB = String(b.data.runId);
    assert.deepStrictEqual(idA, "fs-basics-20261203T140509Z");
    assert.deepStrictEqual(idB, `${idA}x`);
    assert.deepStrictEqual((await call(wb, "GET", `/api/runs/${idA}`)).data.state, "running");
    assert.deepStrictEqual((await call(wb, "GET", `/api/runs/${idB}`)).data.state, "queued");
    assert.deepStrictEqual((await call(wb, "POST", `/api/runs/${idA}/resume`)).status, 409);
    open();
    await wb.context.queue.idle();
    const done = await call(wb, "GET", `/api/runs/${idB}`);
    assert.deepStrictEqual(done.data.state, "completed");
    assert.deepStrictEqual([done.data.completed, done.data.planned, done.data.passed], [
      12,
      12,
      12,
    ]);
    const list = await call(wb, "GET", "/api/runs");
    assert.deepStrictEqual((list.data as unknown as { runId: string }[]).map((r) => r.runId), [
      idB,
      idA,
    ]);
    // The event stream of a finished run replays its cases and ends.
    const events = await (await fetch(`${wb.url}/api/runs/${idA}/events`)).text();
    assert.deepStrictEqual(events.match(/^event: case$/gm)?.length, 12);
    assert.match(events, /event: end\ndata: \{"state":"completed"/);
  } finally {
    open(); // a failed check above must not leave the run waiting and stop() with it
    await stop(wb);
  }
});

Deno.test("workbench: the guard refuses foreign Host, foreign Origin, cross-site writes, missing tokens and big bodies", async () => {
  const wb = await start({ token: "t0k3n-for-the-tests" });
  const auth = { authorization: "Bearer t0k3n-for-the-tests" };
  try {
    // fetch() sets Host itself: send the rebinding request over a raw socket.
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: wb.port });
    await conn.write(
      new TextEncoder().encode(
        `GET /api/health HTTP/1.1\r\nHost: evil.example:${wb.port}\r\nAuthorization: ${auth.authorization}\r\nConnection: close\r\n\r\n`,
      ),
    );
    const raw = new TextDecoder().decode(
      new Uint8Array(await new Response(conn.readable).arrayBuffer()),
    );
    assert.match(raw, /^HTTP\/1\.1 403/);
    const csrf = await call(wb, "POST", "/api/suites", {}, {
      origin: "http://evil.example",
      ...auth,
    });
    assert.deepStrictEqual(csrf.status, 403);
    const cross = await call(wb, "POST", "/api/suites", {}, {
      "sec-fetch-site": "cross-site",
      ...auth,
    });
    assert.deepStrictEqual(cross.status, 403);
    // Each 401 names the scheme it wants (RFC 6750), on the API and on pages.
    for (
      const r of [
        await call(wb, "GET", "/api/health"),
        await call(wb, "GET", "/api/health", undefined, { authorization: "Bearer nope" }),
        await call(wb, "GET", "/plans"),
      ]
    ) {
      assert.deepStrictEqual([r.status, r.headers.get("www-authenticate")], [401, "Bearer"]);
    }
    assert.deepStrictEqual((await call(wb, "GET", "/api/health", undefined, auth)).status, 200);
    // Pages: ?token= sets an HttpOnly cookie and drops the token from the URL.
    const login = await fetch(`${wb.url}/runs?token=t0k3n-for-the-tests`, { redirect: "manual" });
    assert.deepStrictEqual(login.status, 303);
    assert.deepStrictEqual(login.headers.get("location"), "/runs");
    const cookie = login.headers.get("set-cookie")!;
    assert.match(cookie, /HttpOnly; SameSite=Strict/);
    await login.body?.cancel();
    const page = await call(wb, "GET", "/runs", undefined, { cookie: cookie.split(";")[0] });
    assert.deepStrictEqual(page.status, 200);
    const same = await call(wb, "POST", "/api/runs", { suiteId: "nope" }, {
      origin: wb.url,
      ...auth,
    });
    assert.deepStrictEqual(same.status, 400, "a same-origin write passes the guard");
    const big = await call(
      wb,
      "PUT",
      "/api/config/tool-prices",
      JSON.stringify({
        toolPrices: {},
        pad: "x".repeat(1_100_000),
      }),
      auth,
    );
    assert.deepStrictEqual(big.status, 413);
    assert.ok(!big.text.includes("t0k3n-for-the-tests"));
  } finally {
    await stop(wb);
  }
});

/** What a workbench needs beside the listening address, its folders under `tmp`. */
function bareOptions(tmp: string) {
  return {
    configDir: join(tmp, "c"),
    resultsDir: join(tmp, "r"),
    agentsExamples: root("fixtures/agents"),
    suitesExamples: root("fixtures/suites"),
    schemasDir: root("lib/agent/schemas"),
    env: {},
    prepareServers: () => Promise.reject(new Error("unused")),
  };
}

Deno.test("workbench: a port in use is refused with a usage error naming it", async () => {
  const wb = await start();
  const tmp = await Deno.makeTempDir();
  try {
    await assert.rejects(
      startWorkbench({
        ...bareOptions(tmp),
        port: wb.port,
      }),
      (e: Error) =>
        e.name === "UsageError" && e.message.includes(`127.0.0.1:${wb.port}: the port is in use`),
    );
    // The first workbench still answers.
    assert.deepStrictEqual((await call(wb, "GET", "/api/health")).status, 200);
  } finally {
    await Deno.remove(tmp, { recursive: true });
    await stop(wb);
  }
});

Deno.test("workbench: an address beyond loopback needs a token, and no token may be weak", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    let message = "";
    try {
      await startWorkbench({
        ...bareOptions(tmp),
        hostname: "0.0.0.0",
        port: 0,
      });
    } catch (e) {
      message = (e as Error).message;
    }
    assert.match(message, /needs a token/);
    // A weak token is refused on any address, and the message never shows it: too short, 16
    // spaces (a header carries none of them), 16 identical characters, a two-letter pattern.
    const weak: [string, RegExp][] = [
      ["abc123", /the token is 6 characters, fewer than 16/],
      [" ".repeat(16), /whitespace or control characters/],
      ["x".repeat(16), /the token has 1 different character, fewer than 6/],
      ["ab".repeat(8), /the token has 2 different characters, fewer than 6/],
    ];
    for (const hostname of ["0.0.0.0", "127.0.0.1"]) {
      for (const [token, reason] of weak) {
        await assert.rejects(
          startWorkbench({ ...bareOptions(tmp), hostname, port: 0, token }),
          (e: Error) => reason.test(e.message) && !e.message.includes(token),
        );
      }
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("runState() reads held runs, failures, completion and leftovers", () => {
  const sidecar = { failure: { at: "t", message: "m" } } as never;
  assert.deepStrictEqual(runState("running", null, "running"), "running");
  assert.deepStrictEqual(runState(undefined, sidecar, "running"), "failed");
  assert.deepStrictEqual(runState(undefined, null, "complete"), "completed");
  assert.deepStrictEqual(runState(undefined, null, "running"), "interrupted");
  assert.deepStrictEqual(runState(undefined, null, undefined), "interrupted");
});

Deno.test("summarizeRun() splits agent and judge cost and profiles tool calls", () => {
  const base = {
    caseId: "c",
    criterion: null,
    finalAnswer: "x",
    wallMs: 100,
    llmMs: 80,
    toolMs: 10,
    iterations: 2,
    inputTokens: 1000,
    outputTokens: 50,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    peakContextTokens: 1000,
    cachedModelCalls: 0,
    usageNotes: [],
    error: null,
  };
  const call = (tool: string, ms: number, isError = false) => ({
    name: tool,
    tool,
    args: {},
    ms,
    isError,
  });
  const records = [
    {
      ...base,
      agentId: "a",
      repetition: 0,
      passed: true,
      costUsd: 0.01,
      toolCalls: [call("fs:x", 10), call("fs:y", 30)],
      judge: { inputTokens: 200, outputTokens: 20, costUsd: 0.0003 },
    },
    {
      ...base,
      agentId: "a",
      repetition: 1,
      passed: false,
      costUsd: 0.02,
      toolCalls: [call("fs:x", 20, true)],
      judge: null,
    },
    {
      ...base,
      agentId: "a",
      repetition: 2,
      passed: null,
      costUsd: null,
      inputTokens: null,
      toolCalls: [],
      judge: null,
      error: { kind: "model" as const, message: "down" },
    },
  ] as CaseRecord[];
  const s = summarizeRun("r", records, null);
  assert.deepStrictEqual(s.comparison[0].passed, 1);
  assert.deepStrictEqual(s.comparison[0].scored, 2);
  assert.deepStrictEqual(s.comparison[0].errors, 1);
  assert.deepStrictEqual(s.comparison[0].inputTokens, 2000);
  assert.deepStrictEqual(s.comparison[0].casesWithoutUsage, 0);
  assert.deepStrictEqual(s.cost, {
    agentUsd: 0.03,
    judgeUsd: 0.0003,
    judgeInputTokens: 200,
    judgeOutputTokens: 20,
  });
  assert.deepStrictEqual(s.toolProfile.map((t) => [t.tool, t.calls, t.errors, t.meanMs]), [
    ["fs:x", 2, 1, 15],
    ["fs:y", 1, 0, 30],
  ]);
  // Wilson 95% for 1 of 2: [0.0945, 0.9055] (Wilson 1927; computed by hand).
  assert.ok(Math.abs(s.comparison[0].passRateLo! - 0.0945) < 1e-4);
  assert.ok(Math.abs(s.comparison[0].passRateHi! - 0.9055) < 1e-4);
});

Deno.test("workbench: docs/openapi.json describes every API route the server registers", async () => {
  const wb = await start();
  try {
    const doc = JSON.parse(await Deno.readTextFile(root("docs/openapi.json")));
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
        Object.keys(ops).filter((k) => k !== "parameters").map((m) =>
          `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`
        )
      ),
    );
    // One Hono route serves the four whole-document kinds; the OpenAPI file lists each.
    const served = wb.routes.filter((r) => r.path.startsWith("/api/")).flatMap((r) =>
      r.path === "/api/config/:kind"
        ? ["agents", "models", "servers", "tool-prices"].map((k) => `${r.method} /api/config/${k}`)
        : [`${r.method} ${r.path}`]
    );
    assert.deepStrictEqual(served.filter((r) => !documented.has(r)), []);
    assert.deepStrictEqual([...documented].filter((r) => !served.includes(r)), []);
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: a run whose runner fails as a whole is failed with the reason, and resumable", async () => {
  let fail = true;
  const inner = recordingRunner();
  const runner: Runner = {
    run(job, onRecord) {
      if (fail) {
        return Promise.reject(
          new Error('Cannot load model registry: field "claude.apiKey" needs ANTHROPIC_API_KEY'),
        );
      }
      return inner.run(job, onRecord);
    },
  };
  const wb = await start({ runner });
  try {
    const { data } = await call(wb, "POST", "/api/runs", {
      suiteId: "fs-basics",
      agents: [{ agentId: "fs-terse-sequential" }],
    });
    await wb.context.queue.idle();
    const failed = await call(wb, "GET", `/api/runs/${data.runId}`);
    assert.deepStrictEqual(failed.data.state, "failed");
    assert.match(String(failed.data.failure), /needs ANTHROPIC_API_KEY/);
    fail = false;
    assert.deepStrictEqual((await call(wb, "POST", `/api/runs/${data.runId}/resume`)).status, 202);
    await wb.context.queue.idle();
    const done = await call(wb, "GET", `/api/runs/${data.runId}`);
    assert.deepStrictEqual([done.data.state, done.data.completed, done.data.failure], [
      "completed",
      3,
      null,
    ]);
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: the catalog lists report.json files and opens none outside the results folder", async () => {
  const wb = await start();
  try {
    await Deno.mkdir(join(wb.tmp, "results", "bench-a"), { recursive: true });
    await Deno.writeTextFile(join(wb.tmp, "results", "bench-a", "report.json"), "{}");
    await Deno.writeTextFile(join(wb.tmp, "report.json"), "{}");
    const list = await call(wb, "GET", "/api/catalog/reports");
    assert.deepStrictEqual(
      (list.data.reports as { path: string }[]).map((r) => r.path),
      ["bench-a/report.json"],
    );
    for (const path of ["../report.json", "/etc/passwd", "bench-a/../../report.json"]) {
      const r = await call(wb, "GET", `/catalog/report?path=${encodeURIComponent(path)}`);
      assert.deepStrictEqual(r.status, 400, path);
    }
    // A symlink under results/ to a report outside is refused in the results folder's words.
    await Deno.symlink(join(wb.tmp, "report.json"), join(wb.tmp, "results", "out.report.json"));
    const link = await call(wb, "GET", "/catalog/report?path=out.report.json");
    assert.deepStrictEqual(link.status, 400);
    assert.deepStrictEqual(
      link.data.error,
      'path must be a relative path inside the results folder, got "out.report.json"',
    );
    const notReport = await call(wb, "GET", "/catalog/report?path=bench-a%2Freport.json");
    assert.deepStrictEqual(notReport.status, 400);
    assert.match(String(notReport.data.error), /not a bench report/);
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: a page a browser cannot be shown is an HTML error page with the navigation; scripts still get JSON", async () => {
  const wb = await start();
  try {
    const html = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
    const page = await call(wb, "GET", "/runs/no-such-run", undefined, html);
    assert.deepStrictEqual(page.status, 404);
    assert.match(page.text, /^<!doctype html>/);
    assert.match(page.text, /<h1>Not found<\/h1>/);
    assert.match(page.text, /<nav>.*href="\/runs"/s);
    const script = await call(wb, "GET", "/runs/no-such-run");
    assert.deepStrictEqual(script.status, 404);
    // The same message in both, escaped in the page.
    assert.deepStrictEqual(script.data.error, 'no run "no-such-run"');
    assert.ok(page.text.includes('role="alert">no run &quot;no-such-run&quot;</p>'), page.text);
    // An unknown page: HTML for the browser, plain text otherwise; the API answers JSON always.
    const missing = await call(wb, "GET", "/no/such/page", undefined, html);
    assert.deepStrictEqual(missing.status, 404);
    assert.match(missing.text, /no route GET \/no\/such\/page/);
    assert.deepStrictEqual((await call(wb, "GET", "/no/such/page")).text, "404 not found\n");
    const api = await call(wb, "GET", "/api/no-such", undefined, html);
    assert.deepStrictEqual(api.data.error, "no route GET /api/no-such");
  } finally {
    await stop(wb);
  }
});

Deno.test("progressOf() sums tokens exactly and USD to the nano-dollar (0.1 + 0.2 is 0.3)", () => {
  const rec = (passed: boolean | null, costUsd: number, judge: number | null) =>
    ({
      passed,
      inputTokens: 1000,
      outputTokens: 7,
      costUsd,
      judge: judge === null ? null : { inputTokens: 1, outputTokens: 1, costUsd: judge },
    }) as never;
  const p = progressOf([rec(true, 0.1, 0.00075), rec(false, 0.2, null), rec(null, 0, 0.00025)], 5);
  assert.deepStrictEqual(p, {
    completed: 3,
    planned: 5,
    passed: 1,
    failed: 1,
    errors: 1,
    inputTokens: 3000,
    outputTokens: 21,
    costUsd: 0.3,
    judgeCostUsd: 0.001,
  });
  // Without the rounding the float sum is not 0.3.
  assert.notStrictEqual(0.1 + 0.2, 0.3);
});

Deno.test("workbench: a run whose model's API key is not set is refused before it exists (400 naming the variable), and so is its resume", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-wb-key-" });
  // The production runner: the fixtures' claude model reads ${ANTHROPIC_API_KEY}; env is empty.
  const wb = await startWorkbench({ ...bareOptions(tmp), port: 0 });
  try {
    const r = await call(wb, "POST", "/api/runs", {
      suiteId: "fs-basics",
      agents: [{ agentId: "fs-terse-sequential" }],
    });
    assert.equal(r.status, 400, JSON.stringify(r.data));
    assert.match(
      String(r.data.error),
      /field "claude\.apiKey" needs environment variable ANTHROPIC_API_KEY, which is not set.*restart the workbench once it is set, or pick another model$/,
    );
    assert.equal(JSON.stringify(r.data).includes("sk-"), false);
    // Nothing was created: no run to resume, no failed run offering Resume.
    assert.deepEqual((await call(wb, "GET", "/api/runs")).data, []);
    assert.deepEqual([...Deno.readDirSync(join(tmp, "r", "runs"))], []);
    // A model that needs no key (ollama's default) passes the check and is queued.
    const ok = await call(wb, "POST", "/api/runs", {
      suiteId: "fs-basics",
      agents: [{ agentId: "fs-terse-sequential" }],
      model: "ollama",
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.data));
    // It fails (no MCP servers here); were its model one whose key is unset, Resume is refused.
    await wb.context.queue.idle();
    const id = String(ok.data.runId);
    assert.equal((await call(wb, "GET", `/api/runs/${id}`)).data.state, "failed");
    const sidecarPath = join(tmp, "r", "runs", id, "workbench.json");
    const sidecar = JSON.parse(await Deno.readTextFile(sidecarPath));
    sidecar.agents[0].model = "claude";
    await Deno.writeTextFile(sidecarPath, JSON.stringify(sidecar));
    const resume = await call(wb, "POST", `/api/runs/${id}/resume`);
    assert.equal(resume.status, 400, JSON.stringify(resume.data));
    assert.match(
      String(resume.data.error),
      new RegExp(`^cannot resume run "${id}": .*ANTHROPIC_API_KEY`),
    );
  } finally {
    await wb.context.queue.idle().catch(() => {});
    await wb.close();
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("workbench: a body over the limit is refused with 413 whether or not it declares its length, and nothing is written", async () => {
  const wb = await start();
  try {
    const file = join(wb.tmp, "config", "tool_prices.json");
    const before = await Deno.readTextFile(file);
    const doc = JSON.stringify({ toolPrices: {}, pad: "x".repeat(1_100_000) });
    const declared = await call(wb, "PUT", "/api/config/tool-prices", doc);
    assert.deepStrictEqual([declared.status, declared.data.error], [
      413,
      "request body over 1048576 bytes",
    ]);
    // Chunked: no Content-Length, so the limit counts the bytes as they arrive.
    const bytes = new TextEncoder().encode(doc);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let at = 0; at < bytes.length; at += 65_536) c.enqueue(bytes.slice(at, at + 65_536));
        c.close();
      },
    });
    const res = await fetch(`${wb.url}/api/config/tool-prices`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: stream,
    });
    assert.deepStrictEqual(res.status, 413);
    assert.deepStrictEqual((await res.json()).error, "request body over 1048576 bytes");
    assert.deepStrictEqual(await Deno.readTextFile(file), before);
    // Under the limit, the same route reads the body.
    const ok = await call(wb, "PUT", "/api/config/tool-prices", { toolPrices: { "a:b": 0.5 } });
    assert.deepStrictEqual(ok.status, 200);
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: text from the config is escaped on every page that shows it", async () => {
  const wb = await start();
  try {
    const evil = `<img src=x onerror="alert(1)">&'`;
    const escaped = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;";
    const suite = {
      id: "xss",
      description: evil,
      cases: [{ id: "c1", question: evil, criterion: { type: "contains", values: [evil] } }],
    };
    assert.deepStrictEqual((await call(wb, "POST", "/api/suites", suite)).status, 201);
    const plans = await call(wb, "GET", "/plans");
    assert.ok(!plans.text.includes("<img"), "no raw tag on Test plans");
    assert.ok(plans.text.includes(`<p>${escaped}</p>`), plans.text);
    const config = await call(wb, "GET", "/config?tab=suites");
    assert.ok(!config.text.includes("<img"), "no raw tag on Config");
    // The editor's text is the suite as written, once the browser decodes it.
    const area = /<textarea name="json" rows="14">([^<]*)<\/textarea>/.exec(
      config.text.slice(config.text.indexOf('data-id="xss"')),
    )![1];
    const decoded = area.replace(
      /&(lt|gt|quot|#39|amp);/g,
      (_, e) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" })[e as "lt"],
    );
    assert.deepStrictEqual(JSON.parse(decoded), suite);
  } finally {
    await stop(wb);
  }
});

Deno.test("workbench: a run with a malformed line is listed as failed with the file and line; its detail says the same", async () => {
  const wb = await start();
  try {
    const dir = await writeSyntheticRun(wb.context.runs.dir, {
      runId: "broken",
      startedAt: "2026-01-02T03:04:05Z",
      cases: ["c1", "c2"],
      repetitions: 1,
      agents: [{ id: "a", outcome: () => ({ passed: true }) }],
    });
    await Deno.writeTextFile(join(dir, "cases.jsonl"), "{not json\n", { append: true });
    const list = await call(wb, "GET", "/api/runs");
    const row = (list.data as unknown as { runId: string; state: string; failure: string }[])
      .find((r) => r.runId === "broken")!;
    assert.equal(row.state, "failed");
    assert.match(row.failure, /^Cannot use run "broken\/cases\.jsonl": line 3 is not JSON/);
    const detail = await call(wb, "GET", "/api/runs/broken");
    assert.equal(detail.status, 500);
    assert.match(
      String(detail.data.error),
      /^Cannot use run "broken\/cases\.jsonl": line 3 is not/,
    );
  } finally {
    await stop(wb);
  }
});
