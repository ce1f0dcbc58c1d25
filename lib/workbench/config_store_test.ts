// The working config under concurrent and hostile writes, over the real workbench on a loopback
// port: parallel requests are serialized (the files on disk are one request's, never a mixture),
// a write is checked against the whole config as it will be after it, run and suite ids are
// unique under any concurrency, impossible numbers are refused on their field, and a top-level
// file linked from outside the folder is never read. No answer is a 500 or names a path.
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Runner } from "./queue.ts";
import { raw, startBareWorkbench } from "../../testing/workbench.ts";

type Served = Awaited<ReturnType<typeof startBareWorkbench>>;

/** Checks an answer's status and that it names no path of this machine. */
function assertAnswer(wb: Served, r: { status: number; text: string }, statuses: number[]) {
  assert.ok(statuses.includes(r.status), `${r.status}: ${r.text}`);
  assert.ok(!r.text.includes(wb.tmp), `the answer names a path: ${r.text}`);
}

/** Every agent's model is in the registry and every server in servers.json, as stored. */
async function assertConsistent(wb: Served) {
  const agents = JSON.parse((await raw(wb, "GET", "/api/config/agents")).text).agents;
  const models = JSON.parse((await raw(wb, "GET", "/api/config/models")).text).models;
  const servers = JSON.parse((await raw(wb, "GET", "/api/config/servers")).text).mcpServers;
  const ids = new Set(models.map((m: { id: string }) => m.id));
  for (const a of agents) {
    assert.ok(ids.has(a.model), `agent ${a.id} uses model ${a.model}, not in the registry`);
    for (const s of a.mcpServers) assert.ok(s in servers, `agent ${a.id} uses server ${s}`);
  }
}

const noRunner: Runner = { run: () => Promise.resolve() };

Deno.test("config: 20 parallel PUTs of the agent set leave exactly one of the sets, each answered 200", async () => {
  const wb = await startBareWorkbench();
  try {
    const { agents } = JSON.parse((await raw(wb, "GET", "/api/config/agents")).text);
    // Set i: the first (i mod n) + 1 agents, each described as set i.
    const sets = Array.from(
      { length: 20 },
      (_, i) =>
        agents.slice(0, (i % agents.length) + 1).map((a: Record<string, unknown>) => ({
          ...a,
          description: `set ${i}`,
        })),
    );
    const answers = await Promise.all(
      sets.map((set) => raw(wb, "PUT", "/api/config/agents", { agents: set })),
    );
    for (const r of answers) assertAnswer(wb, r, [200]);
    const after = JSON.parse((await raw(wb, "GET", "/api/config/agents")).text).agents;
    const which = after[0].description as string;
    const set = sets[Number(which.replace("set ", ""))];
    assert.deepEqual(
      after.map((a: Record<string, unknown>) => [a.id, a.description]),
      set.map((a: Record<string, unknown>) => [a.id, a.description])
        .sort((x: string[], y: string[]) => x[0] < y[0] ? -1 : 1),
    );
    await assertConsistent(wb);
  } finally {
    await wb.stop();
  }
});

Deno.test("config: dropping a model while an agent that uses it is added never succeeds on both sides (20 tries)", async () => {
  const wb = await startBareWorkbench();
  try {
    const base = JSON.parse((await raw(wb, "GET", "/api/config/models")).text);
    const agent = JSON.parse((await raw(wb, "GET", "/api/config/agents")).text).agents
      .find((a: { id: string }) => a.id === "fs-terse-sequential");
    const outcomes: string[] = [];
    for (let t = 0; t < 20; t++) {
      const extra = { ...base.models.find((m: { id: string }) => m.id === "claude"), id: `m-${t}` };
      const withIt = { ...base, models: [...base.models, extra] };
      assertAnswer(wb, await raw(wb, "PUT", "/api/config/models", withIt), [200]);
      const [drop, add] = await Promise.all([
        raw(wb, "PUT", "/api/config/models", base),
        raw(wb, "PUT", `/api/config/agents/a-${t}`, { ...agent, id: `a-${t}`, model: `m-${t}` }),
      ]);
      assertAnswer(wb, drop, [200, 409]);
      assertAnswer(wb, add, [200, 400]);
      // One side wins; the other is refused naming the model.
      assert.equal([drop, add].filter((r) => r.status === 200).length, 1, drop.text + add.text);
      const refused = drop.status === 200 ? add : drop;
      assert.match(JSON.parse(refused.text).error, new RegExp(`"m-${t}"`));
      outcomes.push(`${drop.status}/${add.status}`);
      await assertConsistent(wb);
    }
  } finally {
    await wb.stop();
  }
});

Deno.test("config: 40 parallel run requests get 40 distinct ids and 40 folders", async () => {
  const wb = await startBareWorkbench({
    runner: noRunner,
    isoNow: () => "2026-11-30T00:00:00.000Z",
  });
  try {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => raw(wb, "POST", "/api/runs", { suiteId: "fs-basics" })),
    );
    for (const r of answers) assertAnswer(wb, r, [201]);
    const ids = answers.map((r) => JSON.parse(r.text).runId as string);
    assert.equal(new Set(ids).size, 40, ids.join(" "));
    const folders = await Array.fromAsync(Deno.readDir(join(wb.tmp, "results", "runs")));
    assert.equal(folders.filter((f) => f.isDirectory).length, 40);
    for (const id of ids) {
      const sidecar = JSON.parse(
        await Deno.readTextFile(join(wb.tmp, "results", "runs", id, "workbench.json")),
      );
      assert.equal(sidecar.runId, id);
    }
  } finally {
    await wb.stop();
  }
});

Deno.test("config: of 10 parallel suite creations with one id, exactly one is 201, the others 409 (5 rounds)", async () => {
  const wb = await startBareWorkbench();
  try {
    for (let round = 0; round < 5; round++) {
      const id = `same-${round}`;
      const suite = (i: number) => ({
        id,
        description: `try ${i}`,
        cases: [{ id: "c", question: "q", criterion: { type: "exact", value: "x" } }],
      });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => raw(wb, "POST", "/api/suites", suite(i))),
      );
      for (const r of answers) assertAnswer(wb, r, [201, 409]);
      assert.equal(answers.filter((r) => r.status === 201).length, 1, `round ${round}`);
      const winner = answers.findIndex((r) => r.status === 201);
      const stored = JSON.parse((await raw(wb, "GET", `/api/suites/${id}`)).text).suite;
      assert.equal(stored.description, `try ${winner}`);
    }
  } finally {
    await wb.stop();
  }
});

Deno.test("config: a number that is not finite or out of range is refused on its field; the files stay usable", async () => {
  const wb = await startBareWorkbench({ runner: noRunner });
  try {
    const put = (path: string, text: string) =>
      fetch(`${wb.url}${path}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: text,
      }).then(async (r) => ({ status: r.status, text: await r.text() }));
    const before = await Promise.all(
      ["tool_prices.json", "models.json", "servers.json", "agents/fs-terse-sequential.json"].map(
        (f) => Deno.readTextFile(join(wb.tmp, "config", f)),
      ),
    );
    const models = (await raw(wb, "GET", "/api/config/models")).text;
    const servers = (await raw(wb, "GET", "/api/config/servers")).text;
    const agent = JSON.parse((await raw(wb, "GET", "/api/config/agents")).text).agents
      .find((a: { id: string }) => a.id === "fs-terse-sequential");
    const cases: [string, string, RegExp][] = [
      [
        "/api/config/tool-prices",
        '{"toolPrices": {"fs:read_text_file": 1e999}}',
        /field "toolPrices\.fs:read_text_file" is not finite \(Infinity\)/,
      ],
      [
        "/api/config/tool-prices",
        '{"toolPrices": {"fs:read_text_file": 1e308}}',
        /field "toolPrices\.fs:read_text_file" is out of range/,
      ],
      [
        "/api/config/models",
        models.replace('"inputUsdPerMTok":3', '"inputUsdPerMTok":-1e999'),
        /field "models\[0\]\.pricing\.inputUsdPerMTok" is not finite \(-Infinity\)/,
      ],
      [
        "/api/config/servers",
        servers.replace('"fs":{', '"fs":{"timeoutMs":1e999,'),
        /field "mcpServers\.fs\.timeoutMs": is not finite \(Infinity\)/,
      ],
      [
        "/api/config/agents/fs-terse-sequential",
        JSON.stringify(agent).replace('"maxIterations":6', '"maxIterations":1e999'),
        /field "maxIterations" is not finite \(Infinity\)/,
      ],
    ];
    for (const [path, body, reason] of cases) {
      assert.notEqual(body, "", path);
      const r = await put(path, body);
      assertAnswer(wb, r, [400]);
      assert.match(JSON.parse(r.text).error, reason, `${path}: ${r.text}`);
    }
    const after = await Promise.all(
      ["tool_prices.json", "models.json", "servers.json", "agents/fs-terse-sequential.json"].map(
        (f) => Deno.readTextFile(join(wb.tmp, "config", f)),
      ),
    );
    assert.deepEqual(after, before);
    // A run request's numbers too (1e999 was named "null").
    for (
      const [field, text, max] of [["repetitions", "1e999", 100], ["concurrency", "1e308", 16]]
    ) {
      const r = await fetch(`${wb.url}/api/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"suiteId": "fs-basics", "${field}": ${text}}`,
      }).then(async (x) => ({ status: x.status, text: await x.text() }));
      assertAnswer(wb, r, [400]);
      assert.equal(
        JSON.parse(r.text).error,
        `field "${field}" must be an integer from 1 to ${max}, got ${String(Number(text))}`,
      );
    }
    // Nothing written, so runs are still accepted.
    assertAnswer(wb, await raw(wb, "POST", "/api/runs", { suiteId: "fs-basics" }), [201]);
  } finally {
    await wb.stop();
  }
});

Deno.test("config: a top-level file linked from outside the folder is never read; an unexpected failure answers without a path", async () => {
  const wb = await startBareWorkbench({ runner: noRunner });
  try {
    const outside = join(wb.tmp, "elsewhere.json");
    await Deno.writeTextFile(outside, '{"toolPrices": {"fs:read_text_file": 0.31337}}');
    const prices = join(wb.tmp, "config", "tool_prices.json");
    await Deno.remove(prices);
    await Deno.symlink(outside, prices);
    const got = await raw(wb, "GET", "/api/config/tool-prices");
    assertAnswer(wb, got, [400]);
    assert.ok(!got.text.includes("31337"), got.text);
    assert.match(JSON.parse(got.text).error, /^tool_prices\.json is a link to a file outside/);
    assertAnswer(wb, await raw(wb, "PUT", "/api/config/tool-prices", { toolPrices: {} }), [400]);
    assertAnswer(wb, await raw(wb, "POST", "/api/runs", { suiteId: "fs-basics" }), [400]);
    assert.equal(
      await Deno.readTextFile(outside),
      '{"toolPrices": {"fs:read_text_file": 0.31337}}',
    );
    await Deno.remove(prices);
    await Deno.copyFile(outside, prices);
    // models.json too, for the API and for a run.
    const models = join(wb.tmp, "config", "models.json");
    await Deno.rename(models, join(wb.tmp, "models.json"));
    await Deno.symlink(join(wb.tmp, "models.json"), models);
    assertAnswer(wb, await raw(wb, "GET", "/api/config/models"), [400]);
    assertAnswer(wb, await raw(wb, "POST", "/api/runs", { suiteId: "fs-basics" }), [400]);
    // A failure the workbench did not foresee (a folder where a file should be) is a 500 whose
    // answer names no path; the log has the cause.
    await Deno.remove(models);
    await Deno.mkdir(models);
    const odd = await raw(wb, "GET", "/api/config/models");
    assertAnswer(wb, odd, [500]);
  } finally {
    await wb.stop();
  }
});

Deno.test("config: an agents/ or suites/ folder linked from outside is never read nor written, on any route", async () => {
  const wb = await startBareWorkbench({ runner: noRunner });
  try {
    for (
      const [folder, reads] of [
        ["suites", ["/api/suites", "/api/suites/fs-basics"]],
        ["agents", [
          "/api/config/agents",
          "/api/agents",
          "/api/agents/fs-terse-sequential/versions",
          "/api/config/prompts/fs-terse-sequential",
        ]],
      ] as const
    ) {
      const inside = join(wb.tmp, "config", folder);
      const outside = join(wb.tmp, `outside-${folder}`);
      await Deno.rename(inside, outside);
      await Deno.symlink(outside, inside);
      const before = await Array.fromAsync(Deno.readDir(outside), (e) => e.name);
      for (const path of reads) {
        const got = await raw(wb, "GET", path);
        assertAnswer(wb, got, [400]);
        assert.equal(
          JSON.parse(got.text).error,
          `${folder}/ is a link to a folder outside the config folder, which the workbench does not read: put the folder itself in it`,
          path,
        );
      }
      const writes = folder === "suites"
        ? [["POST", "/api/suites", {
          id: "new-suite",
          description: "x",
          cases: [{ id: "c", question: "q", criterion: { type: "exact", value: "a" } }],
        }], ["DELETE", "/api/suites/fs-basics", undefined]]
        : [["POST", "/api/agents/fs-terse-sequential/versions", undefined], [
          "DELETE",
          "/api/config/agents/fs-terse-sequential",
          undefined,
        ]];
      for (const [method, path, body] of writes) {
        assertAnswer(wb, await raw(wb, method as string, path as string, body), [400]);
      }
      assertAnswer(wb, await raw(wb, "POST", "/api/runs", { suiteId: "fs-basics" }), [400]);
      assert.deepEqual(await Array.fromAsync(Deno.readDir(outside), (e) => e.name), before);
      await Deno.remove(inside);
      await Deno.rename(outside, inside);
    }
    assertAnswer(wb, await raw(wb, "GET", "/api/suites/fs-basics"), [200]);
  } finally {
    await wb.stop();
  }
});
