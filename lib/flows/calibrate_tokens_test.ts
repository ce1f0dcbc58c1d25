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

Deno.test("calibrate-tokens: an endpoint that hangs mid-run is asked twice, the tools left are not sent; the answers had stay cached for the next run", async () => {
  // Answers the request without tools and the first 3 tools, then hangs (until the test ends);
  // the second run finds it answering again.
  let requests = 0;
  let hanging = true;
  const release = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    requests++;
    const body = await req.json();
    if (hanging && requests > 4) {
      await release.promise;
      return new Response(null, { status: 504 });
    }
    const tools = body.tools === undefined ? 0 : Math.round(JSON.stringify(body.tools).length / 4);
    return Response.json({ input_tokens: 100 + tools });
  });
  const dir = await Deno.makeTempDir();
  try {
    const out = join(dir, "cal.json");
    const run = () =>
      runCalibrateTokens(
        {
          provider: "anthropic",
          model: "claude-x",
          corpus: "fixtures/corpora/reference_v1.tools.json",
          sample: 6,
          seed: 1,
          out,
          cacheDir: join(dir, "cache"),
          countClient: { timeoutMs: 150, sleep: () => Promise.resolve() },
        },
        quiet({
          ANTHROPIC_API_KEY: "sk-test-x",
          ANTHROPIC_BASE_URL: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
        }),
      );
    const first = await run();
    assert.equal(requests, 6);
    assert.equal(first.exitCode, 1);
    assert.equal(first.stderr.length, 3, first.stderr.join("\n"));
    assert.match(
      first.stderr[0],
      /: not measured: anthropic claude-x: gave up after 2 attempts, 2 timed out; last: no answer within 150 ms$/,
    );
    assert.equal(first.stderr[1], "2 tool(s) left not measured: the count endpoint is down");
    assert.equal(first.stderr[2], "Cannot fit anthropic on 3 samples: need at least 5");
    await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
    hanging = false;
    const second = await run();
    // The request without tools and the first 3 tools come from the cache.
    assert.equal(requests, 9);
    assert.equal(second.exitCode, 0, second.stderr.join("\n"));
    assert.match(second.stdout[1], /; 3 request\(s\) sent, 4 from the cache$/);
    await Deno.stat(out);
  } finally {
    release.resolve();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
