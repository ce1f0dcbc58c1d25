// Agent versions over the real workbench: an agent id in the URL is checked before it names a
// folder, and no answer says which files exist on this machine.
import assert from "node:assert/strict";
import { join } from "node:path";
import { raw, startBareWorkbench } from "../../testing/workbench.ts";

Deno.test("workbench: an agent id that is not one is refused with 400 on versions, never listed nor answered with a path", async () => {
  const wb = await startBareWorkbench();
  try {
    // A folder outside the config holding what looks like a version of agent "x".
    const outside = join(wb.tmp, "outside", "x");
    await Deno.mkdir(outside, { recursive: true });
    const version = { agentId: "x", version: 1, sha256: "0", createdAt: "t", config: {} };
    await Deno.writeTextFile(join(outside, "1.json"), JSON.stringify(version));
    // versions/ is <config>/agents/versions: ../../../outside/x climbs to it.
    for (
      const id of [
        "..%2F..%2F..%2Foutside%2Fx",
        "..%2F..%2F..%2Fnowhere",
        "%2Ftmp",
        "a%2F..%2F..%2Fb",
      ]
    ) {
      for (const method of ["GET", "POST"]) {
        const r = await raw(wb, method, `/api/agents/${id}/versions`);
        assert.equal(r.status, 400, `${method} ${id}: ${r.text}`);
        assert.ok(!r.text.includes(wb.tmp), r.text);
        assert.match(JSON.parse(r.text).error, /^agentId must match/);
      }
    }
    // A valid id still answers.
    const ok = await raw(wb, "GET", "/api/agents/fs-terse-sequential/versions");
    assert.equal(ok.status, 200, ok.text);
  } finally {
    await wb.stop();
  }
});
