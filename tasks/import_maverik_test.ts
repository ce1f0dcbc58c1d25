// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task import-maverik end to end: the fixture folders import, the output loads with
// deno task agents (it gets as far as asking for the API key), a non-empty --out is refused
// without --force, and bad input exits 2 with one readable line.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const FIXTURES = join(ROOT, "fixtures/maverik");
const dec = new TextDecoder();

async function task(name: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", name, ...args],
    cwd: ROOT,
    clearEnv: true,
    env: {
      NO_COLOR: "1",
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test({
  name: "import-maverik CLI: imports, the output loads with deno task agents, bad input exits 2",
  sanitizeResources: false,
  async fn(t) {
    const root = await Deno.makeTempDir({ prefix: "mcpmeter-import-maverik-" });
    try {
      const out = join(root, "basic");
      await t.step("the basic folder imports and says how to run it", async () => {
        const r = await task("import-maverik", ["--from", join(FIXTURES, "basic"), "--out", out]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(
          r.stdout,
          /imported 2 agents \(2 versions\), 2 models, 3 servers, 2 tool prices, 1 description overrides, 1 suites \(4 cases\)/,
        );
        assert.match(r.stderr, /^unmapped llm-models.json defaultModelId: /m);
        const report = JSON.parse(await Deno.readTextFile(join(out, "import-report.json")));
        assert.equal(report.counts.cases, 4);
        assert.match(r.stdout, /^run: deno task agents --agents-dir /m);
      });
      await t.step("deno task agents loads the output, up to starting its servers", async () => {
        const a = join(out, "agents");
        const r = await task("agents", [
          "--agents-dir",
          a,
          "--models",
          join(a, "models.json"),
          "--servers",
          join(a, "servers.json"),
          "--tool-prices",
          join(a, "tool_prices.json"),
          "--suite",
          join(out, "suites/dotnet-basics.json"),
          "--agents",
          "docs-helper-wide",
          "--env-file",
          join(root, "no.env"),
          "--out",
          join(root, "runs"),
        ], { ANTHROPIC_API_KEY: "sk-import-test-not-a-key" });
        const all = r.stdout + r.stderr;
        // Agents, models (keys expanded), tool prices and the suite loaded; the runner then
        // reaches for the remote servers (no network here: a recorded mcp error per case).
        assert.doesNotMatch(all, /Cannot load|not a known field|is required/);
        assert.doesNotMatch(all, /only stdio/);
        assert.match(all, /\[agents\]/);
      });
      await t.step("a non-empty --out is refused without --force", async () => {
        const r = await task("import-maverik", ["--from", join(FIXTURES, "basic"), "--out", out]);
        assert.equal(r.code, 2);
        assert.match(
          r.stderr,
          /^mcpmeter import-maverik: error: Cannot write to ".*basic": the folder is not empty \(use --force/,
        );
        const forced = await task("import-maverik", [
          "--from",
          join(FIXTURES, "basic"),
          "--out",
          out,
          "--force",
        ]);
        assert.equal(forced.code, 0, forced.stderr);
      });
      await t.step("the broken folder imports what it can and lists the rest", async () => {
        const r = await task("import-maverik", [
          "--from",
          join(FIXTURES, "broken"),
          "--out",
          join(root, "broken"),
        ]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /^error +maverik-suites\/torn.json: is not valid JSON/m);
        assert.match(r.stdout, /imported 2 agents \(0 versions\), 0 models, 1 servers/);
      });
      await t.step("nothing importable exits 1; bad input exits 2", async () => {
        const empty = join(root, "empty");
        await Deno.mkdir(empty);
        await Deno.writeTextFile(join(root, "file.txt"), "not a folder");
        // MAVERIK's files are there, but none holds anything usable: exit 1.
        const junk = join(root, "junk");
        await Deno.mkdir(junk);
        await Deno.writeTextFile(join(junk, "agents.json"), "{ not json");
        const none = await task("import-maverik", ["--from", junk, "--out", join(root, "o1")]);
        assert.equal(none.code, 1, none.stderr);
        const cases: [string[], RegExp][] = [
          // No MAVERIK file at all: the wrong folder, said before anything is written.
          [
            ["--from", empty, "--out", join(root, "o6")],
            /"[^"]*empty": it holds none of MAVERIK's config files \(llm-models\.json, .*give MAVERIK's config folder$/m,
          ],
          [["--out", join(root, "o2")], /--from DIR is required/],
          [["--from", empty], /--out DIR is required/],
          [
            ["--from", join(root, "nope"), "--out", join(root, "o3")],
            /"[^"]*nope": no such folder/,
          ],
          [
            ["--from", join(root, "empty", "..", "file.txt"), "--out", join(root, "o5")],
            /"[^"]*file\.txt": not a folder/,
          ],
          [["--from", empty, "--out", join(root, "o4"), "--bogus"], /unknown flag --bogus/],
        ];
        for (const [args, message] of cases) {
          const r = await task("import-maverik", args);
          assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
          assert.match(r.stderr, message);
          assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
        }
        await assert.rejects(() => Deno.stat(join(root, "o6")), Deno.errors.NotFound);
      });
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
