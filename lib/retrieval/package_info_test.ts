import assert from "node:assert/strict";
import type { Tool } from "../catalog/types.ts";
import { parseMcpproxyGolden } from "./golden.ts";
import { evaluateRetrieval } from "./evaluate.ts";
import { packageInfoArm, parsePackageInfo } from "./package_info.ts";

Deno.test("parsePackageInfo() reads a capture manifest and a package-info file alike", () => {
  const manifest = parsePackageInfo(
    JSON.stringify({
      format: "mcpmeter-capture-manifest",
      servers: [
        {
          server: "k8s",
          package: "mcp-k8s",
          version: "1.0.0",
          packageDescription: "Kubernetes cluster tools",
          packageKeywords: ["kubectl", "pods"],
        },
        { server: "bare", package: "bare-mcp", version: "2.0.0" },
      ],
    }),
    "m.json",
  );
  assert.deepEqual([...manifest.keys()], ["k8s"], "a server without package words is left out");
  assert.deepEqual(manifest.get("k8s"), {
    server: "k8s",
    package: "mcp-k8s",
    version: "1.0.0",
    description: "Kubernetes cluster tools",
    keywords: ["kubectl", "pods"],
  });
  const file = parsePackageInfo(
    JSON.stringify({
      format: "mcpmeter-package-info",
      servers: [{ server: "k8s", description: "Kubernetes cluster tools" }],
    }),
    "p.json",
  );
  assert.deepEqual(file.get("k8s")?.keywords, []);
  assert.throws(
    () => parsePackageInfo(JSON.stringify({ format: "x", servers: [] }), "bad.json"),
    new TypeError(
      'bad.json: expected a capture manifest or a mcpmeter-package-info file, got format "x"',
    ),
  );
  assert.throws(
    () =>
      parsePackageInfo(
        JSON.stringify({
          format: "mcpmeter-package-info",
          servers: [{ server: "s", keywords: "a,b" }],
        }),
        "bad.json",
      ),
    /bad.json: servers\[0\] \(s\): keywords must be an array of strings/,
  );
});

Deno.test("the package_info arm lets bm25 find a tool by its package's words", () => {
  const tools: Tool[] = [
    ["k8s", "list_pods", "List the pods of a namespace"],
    ["k8s", "get_logs", "Logs of a container"],
    ["fs", "read_file", "Read a file"],
    ["fs", "list_dir", "List a directory"],
  ].map(([server, name, description]) => ({
    id: `${server}:${name}`,
    server,
    name,
    description,
  }));
  const corpus = {
    id: "c",
    version: "1",
    provenance: { format: "mcp-tools-list" as const },
    tools,
    warnings: [],
  };
  const golden = parseMcpproxyGolden(
    JSON.stringify({
      queries: [{
        id: "q1",
        query: "kubernetes",
        labels: [{ tool_id: "k8s:get_logs", relevance: 2 }],
      }],
    }),
    { id: "c.test" },
  );
  const info = parsePackageInfo(
    JSON.stringify({
      format: "mcpmeter-package-info",
      servers: [{ server: "k8s", description: "Kubernetes cluster tools", keywords: ["kubectl"] }],
    }),
    "p.json",
  );
  const arm = packageInfoArm(info);
  assert.equal(arm.indexFields(tools[0]).server, "k8s Kubernetes cluster tools kubectl");
  assert.equal(
    arm.indexFields(tools[2]).server,
    "fs",
    "a server without package words is unchanged",
  );
  const plain = evaluateRetrieval({ corpus, golden, retriever: "bm25", seed: 1, resamples: 10 });
  const withInfo = evaluateRetrieval({
    corpus,
    golden,
    retriever: "bm25",
    arm,
    seed: 1,
    resamples: 10,
  });
  // No tool says "kubernetes"; its package does: both k8s tools tie, in id order.
  assert.deepEqual(plain.perQuery[0].topIds, []);
  assert.deepEqual(withInfo.perQuery[0].topIds, ["k8s:get_logs", "k8s:list_pods"]);
  assert.equal(withInfo.arm, "package_info");
});

Deno.test("the reference package-info fixture describes the frozen corpus it claims", async () => {
  const root = new URL("../../fixtures/corpora/", import.meta.url);
  const text = await Deno.readTextFile(new URL("reference_v1.packages.json", root));
  const info = parsePackageInfo(text, "reference_v1.packages.json");
  const corpusBytes = await Deno.readFile(new URL("reference_v1.tools.json", root));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", corpusBytes));
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  assert.equal(JSON.parse(text).corpus.sha256, hex, "recorded against the frozen corpus bytes");
  const corpus = JSON.parse(new TextDecoder().decode(corpusBytes)) as {
    servers: { server: string }[];
  };
  const names = new Set(corpus.servers.map((s) => s.server));
  // 72 servers have package words: 70 a description, 2 more keywords only.
  assert.equal(info.size, 72);
  for (const server of info.keys()) assert.ok(names.has(server), `${server} is a corpus server`);
  // 70 of the 73 packages have a description (counted in the recapture's manifest).
  assert.equal([...info.values()].filter((p) => p.description !== undefined).length, 70);
});
