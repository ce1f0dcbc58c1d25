// Agents over real HTTP: the Agents list and an agent's page (versions and whether the live
// configuration equals one, its runs, Compare links), creating and deleting agents, and chat
// models only where a chat model is needed (agent, model override, judge, a suite's judge),
// refused on the field; a run's judge replaces the suite's in the frozen suite.
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Workbench } from "../server.ts";
import { writeSyntheticRun } from "../../../testing/synthetic_runs.ts";
import { startBareWorkbench } from "../../../testing/workbench.ts";

async function call(wb: Workbench, method: string, path: string, body?: unknown) {
  const res = await fetch(`${wb.url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(text);
  } catch { /* a page */ }
  return { status: res.status, data, text };
}

Deno.test("workbench: an agent's page shows its configuration, versions against the live one, its runs and Compare; agents are created and deleted", async () => {
  const wb = await startBareWorkbench();
  try {
    const id = "fs-terse-sequential";
    assert.equal((await call(wb, "GET", "/agents/no-such")).status, 404);
    let page = await call(wb, "GET", `/agents/${id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Agent fs-terse-sequential<\/h1>/);
    assert.match(page.text, /data-save="agent" data-id="fs-terse-sequential"/);
    assert.match(page.text, /data-save="prompt"/); // its prompt is a file: edited here too
    assert.match(page.text, /No version cut yet/);
    assert.match(page.text, /No run yet/);

    assert.equal((await call(wb, "POST", `/api/agents/${id}/versions`)).status, 201);
    page = await call(wb, "GET", `/agents/${id}`);
    assert.match(page.text, /The live configuration equals v1/);
    const agents = (await call(wb, "GET", "/api/config/agents")).data.agents as { id: string }[];
    const live = agents.find((a) => a.id === id)!;
    await call(wb, "PUT", `/api/config/agents/${id}`, { ...live, maxIterations: 3 });
    page = await call(wb, "GET", `/agents/${id}`);
    assert.match(page.text, /The live configuration changed since v1/);

    // Its runs (as itself or a version) and the suites to compare on.
    await writeSyntheticRun(join(wb.tmp, "results", "runs"), {
      runId: "r1",
      suiteId: "fs-basics",
      startedAt: "2026-01-01T00:00:00.000Z",
      cases: ["a"],
      repetitions: 1,
      agents: [{ id: `${id}@1`, outcome: () => ({ passed: true }) }],
    });
    page = await call(wb, "GET", `/agents/${id}`);
    assert.match(page.text, /href="\/runs\/r1"/);
    assert.match(page.text, /href="\/compare\?suite=fs-basics&amp;agent=fs-terse-sequential"/);
    // Compare's list links the agent to its page.
    const compare = await call(wb, "GET", "/compare");
    assert.match(compare.text, /<a href="\/agents\/fs-terse-sequential">fs-terse-sequential<\/a>/);
    const list = await call(wb, "GET", "/agents");
    assert.match(list.text, /<a href="\/agents\/fs-terse-sequential">/);

    // Create: a new id is written as agents/<id>.json; an existing id is refused.
    const copy = { ...live, id: "fs-copy" };
    assert.equal((await call(wb, "POST", "/api/config/agents", copy)).status, 201);
    const file = join(wb.context.config.dir, "agents", "fs-copy.json");
    assert.equal(JSON.parse(await Deno.readTextFile(file)).id, "fs-copy");
    const again = await call(wb, "POST", "/api/config/agents", copy);
    assert.deepEqual([again.status, again.data.field], [409, "id"]);
    const badId = await call(wb, "POST", "/api/config/agents", { ...live, id: "../x" });
    assert.deepEqual([badId.status, badId.data.field], [400, "id"]);
    // Delete: the file goes, the versions stay.
    assert.equal((await call(wb, "DELETE", "/api/config/agents/fs-copy")).status, 204);
    assert.equal(await Deno.stat(file).then(() => true, () => false), false);
    assert.equal((await call(wb, "DELETE", "/api/config/agents/fs-copy")).status, 404);
    assert.equal((await call(wb, "DELETE", `/api/config/agents/${id}`)).status, 204);
    const versions = await call(wb, "GET", `/api/agents/${id}/versions`);
    assert.deepEqual((versions.data.versions as { version: string }[]).map((v) => v.version), [
      "1",
    ]);
  } finally {
    await wb.stop();
  }
});

Deno.test("workbench: an embedding model is never offered or accepted where a chat model is needed", async () => {
  const wb = await startBareWorkbench({ env: { ANTHROPIC_API_KEY: "k" } });
  try {
    const agents = (await call(wb, "GET", "/api/config/agents")).data.agents as {
      id: string;
    }[];
    const agent = agents.find((a) => a.id === "fs-terse-sequential")!;
    const file = join(wb.context.config.dir, "agents", "fs-terse-sequential.json");
    const before = await Deno.readTextFile(file);
    const put = await call(wb, "PUT", "/api/config/agents/fs-terse-sequential", {
      ...agent,
      model: "openai-embed",
    });
    assert.deepEqual([put.status, put.data.field], [400, "model"]);
    assert.match(String(put.data.error), /"openai-embed", an embedding model/);
    assert.equal(await Deno.readTextFile(file), before);
    const post = await call(wb, "POST", "/api/config/agents", {
      ...agent,
      id: "x",
      model: "ollama-embed",
    });
    assert.deepEqual([post.status, post.data.field], [400, "model"]);

    // The run form's model and judge choices hold chat models only.
    const plans = await call(wb, "GET", "/plans");
    assert.match(plans.text, /<option value="claude">/);
    assert.doesNotMatch(plans.text, /openai-embed|ollama-embed/);
    const config = await call(wb, "GET", "/config");
    assert.doesNotMatch(config.text, /<option>openai-embed<\/option>/);
    const run = (body: Record<string, unknown>) =>
      call(wb, "POST", "/api/runs", {
        suiteId: "memory-graph",
        agents: [{ agentId: "fs-terse-sequential" }],
        ...body,
      });
    const model = await run({ model: "openai-embed" });
    assert.deepEqual([model.status, model.data.field], [400, "model"]);
    const judge = await run({ judge: "ollama-embed" });
    assert.deepEqual([judge.status, judge.data.field], [400, "judge"]);
    const unknown = await run({ judge: "nope" });
    assert.deepEqual([unknown.status, unknown.data.field], [400, "judge"]);
    const noJudge = await call(wb, "POST", "/api/runs", {
      suiteId: "fs-basics",
      agents: [{ agentId: "fs-terse-sequential" }],
      judge: "scripted",
    });
    assert.deepEqual([noJudge.status, noJudge.data.field], [400, "judge"]);

    // A suite whose judge is an embedding model is refused.
    const suite = {
      id: "judged",
      description: "d",
      cases: [{
        id: "c",
        question: "q",
        criterion: {
          type: "all",
          criteria: [{ type: "exact", value: "x" }, {
            type: "llm_judge",
            rubric: "r",
            model: "openai-embed",
          }],
        },
      }],
    };
    const saved = await call(wb, "POST", "/api/suites", suite);
    assert.equal(saved.status, 400);
    assert.match(
      String(saved.data.error),
      /suite "judged" uses judge model "openai-embed", which the model registry \(chat models\) does not hold/,
    );
  } finally {
    await wb.stop();
  }
});

Deno.test("workbench: a run's judge replaces the suite's judges in the frozen suite; a judge whose key is missing is refused on the judge field", async () => {
  // ANTHROPIC_API_KEY unset: claude agents and the suite's judge ("judge") cannot be called; the
  // scripted model's variables are set as deno task serve sets them.
  const wb = await startBareWorkbench({
    env: {
      MCPMETER_SCRIPTED_URL: "http://127.0.0.1:9",
      MCPMETER_SCRIPTED_OPENAI_URL: "http://127.0.0.1:9/v1",
      MCPMETER_SCRIPTED_KEY: "scripted-not-a-key",
    },
  });
  try {
    const missing = await call(wb, "POST", "/api/runs", {
      suiteId: "memory-graph",
      agents: [{ agentId: "fs-terse-sequential" }],
      model: "scripted",
    });
    assert.deepEqual([missing.status, missing.data.field], [400, "judge"]);
    assert.match(
      String(missing.data.error),
      /ANTHROPIC_API_KEY.*choose a judge model \(scripted needs no key\)/,
    );
    const ok = await call(wb, "POST", "/api/runs", {
      suiteId: "memory-graph",
      agents: [{ agentId: "fs-terse-sequential" }],
      model: "scripted",
      judge: "scripted",
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.data));
    const sidecar = await wb.context.runs.sidecar(String(ok.data.runId));
    assert.equal(sidecar!.request.judge, "scripted");
    const judged = sidecar!.suite.cases.find((k) => k.id === "bob-role-judged")!.criterion;
    assert.equal(judged.type, "llm_judge");
    assert.deepEqual(
      [(judged as { model?: string }).model, (judged as { judges?: string[] }).judges],
      ["scripted", undefined],
    );
    // The configured suite is unchanged.
    const stored = (await call(wb, "GET", "/api/suites/memory-graph")).data.suite as {
      cases: { criterion: { model?: string } }[];
    };
    assert.equal(stored.cases[2].criterion.model, "judge");
  } finally {
    await wb.stop();
  }
});
