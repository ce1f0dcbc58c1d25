import assert from "node:assert/strict";
import { join } from "node:path";
import { runCalibrateTokens } from "./calibrate_tokens.ts";

const quiet = (env: Record<string, string>) => ({
  env: () => env,
  progress: () => {},
  displayPath: (p: string) => p,
});

Deno.test("calibrate-tokens: a count with a tool at or below the count without is no sample; none left is exit 1, nothing written", async () => {
  // A gateway answering count_tokens with numbers that cannot be: 100 without tools, 100 or 60
  // with one (tools always add their definitions and the tool-use prompt).
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    requests++;
    const body = await req.json();
    const tokens = body.tools === undefined ? 100 : requests % 2 === 0 ? 100 : 60;
    return Response.json({ input_tokens: tokens });
  });
  const dir = await Deno.makeTempDir();
  try {
    const out = join(dir, "cal.json");
    const outcome = await runCalibrateTokens(
      {
        provider: "anthropic",
        model: "claude-x",
        corpus: "fixtures/corpora/reference_v1.tools.json",
        sample: 6,
        seed: 1,
        out,
        cacheDir: join(dir, "cache"),
      },
      quiet({
        ANTHROPIC_API_KEY: "sk-test-x",
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
      }),
    );
    assert.equal(requests, 7);
    assert.equal(outcome.exitCode, 1);
    const impossible = outcome.stderr.filter((l) => /not measured: impossible counts: /.test(l));
    assert.equal(impossible.length, 6, outcome.stderr.join("\n"));
    assert.match(impossible.join("\n"), /: 60 tokens with the tools, 100 without them/);
    assert.match(impossible.join("\n"), /: 100 tokens with the tools, 100 without them/);
    await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
