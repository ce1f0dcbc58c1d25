// Permission cases of the catalog and bench tasks (tasks/permissions_test.ts runs them, in this
// order, before the agent tasks): each one's unscoped permissions with their reason, and a small
// real invocation under its deno.json permissions.
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "../lib/core/sdk.ts";
import * as P from "./permissions.ts";

const { argv, assertRan, MEMORY_CONFIG, OUT, READ_ANYWHERE, ROOT, serving, task } = P;

const CONFIG_ENV = "${VAR} in a servers config names any variable";
const CONFIG_RUN = "starts the stdio servers of a config (any command)";
const INSTALLED = "--install-dir .scratch/servers";

/** The catalog and bench tasks' cases. */
export const CATALOG_CASES: Readonly<Record<string, P.PermissionCase>> = {
  fixtures: { run: async () => assertRan("fixtures", await task("fixtures", [])) },
  synth: {
    unscoped: { read: READ_ANYWHERE },
    run: async ({ elsewhere }) => {
      // An output under the home folder is written; one into fixtures/ is refused, naming why.
      const out = `${elsewhere}/synth_40.tools.json`;
      assertRan("synth", await task("synth", argv(`--tools 40 --out ${out}`)));
      const refused = await task("synth", argv("--tools 40 --out fixtures/synth_40.tools.json"));
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /and write anywhere but fixtures\//);
      await Deno.stat(join(ROOT, "fixtures/synth_40.tools.json")).then(
        () => assert.fail("synth wrote into fixtures/"),
        () => {},
      );
    },
  },
  scale: {
    unscoped: {
      read: READ_ANYWHERE,
      run: "runs deno task synth and deno task bench (Deno) as measured child processes",
    },
    run: async () => {
      // 40 tools lack the golden set's tools, so the measured bench exits 1 (scale then exits 1);
      // what counts here is that scale ran synth and bench and read their peak memory.
      const r = await task(
        "scale",
        argv(`--sizes 40 --no-default --out ${OUT}/scale --docs ${OUT}/scale/performance.md`),
      );
      assertRan("scale", r, [0, 1]);
      const report = JSON.parse(await Deno.readTextFile(join(ROOT, OUT, "scale", "scale.json")));
      const rows = report.rows as { peakRssMb: number | null }[];
      assert.equal(rows.length, 1);
      assert.ok((rows[0].peakRssMb ?? 0) > 10, JSON.stringify(rows[0]));
      // The generated section, written under the task's own permissions.
      const doc = await Deno.readTextFile(join(ROOT, OUT, "scale", "performance.md"));
      assert.match(doc, /\| 40 tools \| 40 \|/);
    },
  },
  "lint-catalog": {
    unscoped: {
      read: READ_ANYWHERE,
      net: "--servers may name remote servers at any URL",
      run: `--servers ${CONFIG_RUN}`,
      env: CONFIG_ENV,
    },
    run: async ({ elsewhere }) => {
      const args = ["--json", "--corpus", `${elsewhere}/synth_40.tools.json`];
      assertRan("lint-catalog", await task("lint-catalog", args), [0, 1]);
    },
  },
  bench: {
    unscoped: {
      read: READ_ANYWHERE,
      net: "--proxy-servers and --endpoint reach a gateway at any URL",
      run: "--live and --proxy-servers start the stdio servers of a config (any command)",
      env: CONFIG_ENV,
    },
    run: async ({ elsewhere }) => {
      const args = argv(`--corpus ${elsewhere}/synth_40.tools.json --arms none --golden none
        --tool-results none --tokenizers cl100k_base --out ${elsewhere}/bench`);
      assertRan("bench", await task("bench", args));
      await Deno.stat(join(elsewhere, "bench", "report.json"));
    },
  },
  capture: {
    unscoped: {
      read: READ_ANYWHERE,
      write: "--out fixtures/corpora refreshes the frozen reference corpus (never the default)",
      net: "remote servers of a config are at any URL",
      run: "runs npm and the stdio servers of a config (any command)",
      env: CONFIG_ENV,
    },
    run: async ({ elsewhere }) => {
      // A desktop client's config read where it lives; the capture written beside it.
      const args = argv(`--config ${elsewhere}/claude_desktop_config.json --only memory
        ${INSTALLED} --no-install --out ${elsewhere}/capture`);
      assertRan("capture", await task("capture", args));
      await Deno.stat(join(elsewhere, "capture", "claude_desktop_config.tools.json"));
    },
  },
  audit: {
    unscoped: {
      read: "reads the MCP client configs and settings under the home folder, and any --config",
      net: "remote servers of a client config are at any URL",
      run: "runs npm and the stdio servers of the client configs (any command)",
      env: "reads the deferral settings and ${VAR} of the client configs from the environment",
    },
    run: async ({ elsewhere }) => {
      // A desktop client's config read where it lives, audited alone, written as its users write
      // it (a pinned npx launch, run from the installed package offline; mcpmeter's own entry
      // keys are not read from a known client's file); the report names its one server, measured.
      const out = `${OUT}/audit/audit.json`;
      const config = `${elsewhere}/Claude/claude_desktop_config.json`;
      await Deno.mkdir(`${elsewhere}/Claude`, { recursive: true });
      await Deno.writeTextFile(
        config,
        JSON.stringify({
          mcpServers: {
            memory: {
              command: "npx",
              args: ["-y", "@modelcontextprotocol/server-memory@2026.8.31"],
            },
          },
        }),
      );
      assertRan(
        "audit",
        await task("audit", argv(`--config ${config} ${INSTALLED} --no-install --out ${out}`)),
      );
      const report = JSON.parse(await Deno.readTextFile(join(ROOT, out)));
      assert.deepEqual(
        report.configs[0].servers.map((s: { name: string; status: string }) => [s.name, s.status]),
        [["memory", "ok"]],
      );
    },
  },
  "capture-results": {
    unscoped: {
      read: READ_ANYWHERE,
      write: "--out fixtures/tool_results refreshes the frozen results (never the default)",
      run: "runs npm and the stdio servers of a config (any command)",
      env: CONFIG_ENV,
    },
    run: async () => {
      const plan = `${OUT}/calls.json`;
      const call = { id: "fs-allowed", server: "filesystem", tool: "list_allowed_directories" };
      await Deno.writeTextFile(
        join(ROOT, plan),
        JSON.stringify({ calls: [{ ...call, arguments: {} }] }),
      );
      const args = `--calls ${plan} ${INSTALLED} --no-install --out ${OUT}/capture-results --id t`;
      assertRan("capture-results", await task("capture-results", argv(args)));
    },
  },
  live: {
    unscoped: {
      read: READ_ANYWHERE,
      net: "--endpoint and remote servers are at any URL",
      run: CONFIG_RUN,
      env: CONFIG_ENV,
    },
    run: async () =>
      assertRan("live", await task("live", argv(`--only memory ${INSTALLED} --out ${OUT}/live`))),
  },
  proxy: {
    unscoped: {
      read: READ_ANYWHERE,
      net: "listens on --host and reaches remote upstreams at any URL",
      run: CONFIG_RUN,
      env: CONFIG_ENV,
    },
    run: async () => {
      // The SDK's client over streamable HTTP: connecting is the initialize round trip.
      const r = await serving(
        "proxy",
        argv(`--servers ${MEMORY_CONFIG} --http 0 ${INSTALLED}`),
        /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/,
        async ([, url]) => {
          const client = new Client({ name: "t", version: "1" });
          await client.connect(new StreamableHTTPClientTransport(new URL(url)));
          assert.ok(client.getServerVersion() !== undefined);
          await client.close();
        },
      );
      assertRan("proxy", r);
    },
  },
};
