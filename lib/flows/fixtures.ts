/**
 * The fixtures manifest behind `deno task fixtures`: the sha256 and byte size of every frozen
 * input under fixtures/, with where each group comes from and how it is regenerated.
 *
 * @module
 */
import { join, relative } from "node:path";
import { sha256Hex } from "../catalog/mod.ts";
import { RESULT_DECIMALS, stableJson } from "../core/json.ts";

/** Where each group of fixtures comes from and how it is regenerated (longest prefix wins). */
export const FIXTURE_SOURCES: readonly { prefix: string; source: string; regenerate: string }[] = [
  {
    prefix: "maverik/",
    source:
      "hand-written MAVERIK-shaped config folders (field names from MAVERIK's public README), inputs of deno task import-maverik",
    regenerate: "by hand",
  },
  {
    prefix: "corpora/reference_v1.packages",
    source:
      "package.json description and keywords of the packages pinned in fixtures/servers/reference.json, from the manifest of a recapture whose corpus is byte-identical to reference_v1.tools.json",
    regenerate:
      "deno task capture, then servers[].packageDescription and packageKeywords of results/captures/reference_v1.manifest.json",
  },
  {
    prefix: "corpora/",
    source:
      "tools/list of the npm MCP servers pinned in fixtures/servers/reference.json, captured offline",
    regenerate: "deno task capture --out fixtures/corpora",
  },
  {
    prefix: "tool_results/results_v1",
    source: "tools/call results of reference servers over fixtures/tool_results/data and sqlite",
    regenerate: "deno task capture-results --out fixtures/tool_results",
  },
  {
    prefix: "tool_results/",
    source: "hand-written inputs of the tools/call capture",
    regenerate: "by hand",
  },
  {
    prefix: "golden/reference_v2",
    source:
      "hand-written task-first queries for reference_v1: user scenarios first, then labels, before any retriever ran",
    regenerate: "by hand",
  },
  {
    prefix: "golden/",
    source: "hand-written graded queries for reference_v1, written before any retriever ran",
    regenerate: "by hand",
  },
  {
    prefix: "servers/",
    source: "../shared/research/npm-mcp-servers.md (pins, args, env)",
    regenerate: "by hand",
  },
  {
    prefix: "proxies/",
    source: "mcpmeter's reference proxy and code-mode catalogs",
    regenerate: "by hand",
  },
  { prefix: "agents/", source: "example agents, models and tool prices", regenerate: "by hand" },
  {
    prefix: "overrides/reference_v1",
    source:
      "hand-written tool-description overrides for reference_v1, from the bm25 misses of reference_v2.dev (never from reference_v2.test)",
    regenerate: "by hand",
  },
  {
    prefix: "overrides/",
    source:
      "hand-written tool-description overrides for the example agents' servers (fixtures/agents/servers.json keys)",
    regenerate: "by hand",
  },
  {
    prefix: "suites/",
    source: "example suites; data checked by hand (see suites/README.md)",
    regenerate: "by hand",
  },
  {
    prefix: "labels/",
    source:
      "hand-written answers to suite cases, each labelled pass/fail by reading it against the case's rubric (judge calibration)",
    regenerate: "by hand",
  },
  {
    prefix: "catalogs/",
    source: "negative and hard-case catalogs, each with description and expect",
    regenerate: "by hand",
  },
  {
    prefix: "mcp/",
    source: "stdio MCP servers that misbehave on purpose (hang, exit, junk)",
    regenerate: "by hand",
  },
  {
    prefix: "lint/",
    source: "an SDK server built to trigger catalog lint rules",
    regenerate: "by hand",
  },
  { prefix: "README.md", source: "the index of fixtures/", regenerate: "by hand" },
];

/** One manifest entry. */
export interface FixtureEntry {
  /** Path relative to `fixtures/`. */
  readonly path: string;
  /** Lower-case hex SHA-256 of the bytes. */
  readonly sha256: string;
  /** Size in bytes. */
  readonly bytes: number;
  /** Where it comes from. */
  readonly source: string;
  /** How it is regenerated. */
  readonly regenerate: string;
}

/** File name of the manifest inside the fixtures folder. */
export const FIXTURE_MANIFEST = "manifest.json";

/** Hashes every file under `dir` (except the manifest), sorted by path. */
export async function scanFixtures(dir: string): Promise<FixtureEntry[]> {
  const out: FixtureEntry[] = [];
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) await walk(p);
      else if (e.isFile) {
        const path = relative(dir, p);
        if (path === FIXTURE_MANIFEST) continue;
        const bytes = await Deno.readFile(p);
        const src = FIXTURE_SOURCES.filter((s) => path.startsWith(s.prefix))
          .sort((a, b) => b.prefix.length - a.prefix.length)[0];
        out.push({
          path,
          sha256: await sha256Hex(bytes),
          bytes: bytes.length,
          source: src?.source ?? "unlisted",
          regenerate: src?.regenerate ?? "unknown",
        });
      }
    }
  };
  await walk(dir);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Differences between the recorded and the current files. */
export function diffFixtures(
  recorded: readonly FixtureEntry[],
  current: readonly FixtureEntry[],
): string[] {
  const before = new Map(recorded.map((e) => [e.path, e]));
  const now = new Map(current.map((e) => [e.path, e]));
  const out: string[] = [];
  for (const [path, e] of now) {
    const r = before.get(path);
    if (!r) out.push(`added: ${path}`);
    else if (r.sha256 !== e.sha256) {
      out.push(`changed: ${path} (sha256 ${r.sha256.slice(0, 12)} → ${e.sha256.slice(0, 12)})`);
    }
  }
  for (const path of before.keys()) if (!now.has(path)) out.push(`removed: ${path}`);
  return out;
}

/**
 * Compares the files of `dir` with its manifest, or (`write`) records them in it.
 *
 * @param dir The fixtures folder.
 * @param write Record the current files instead of comparing.
 * @returns The differences (empty when they match or after writing) and the file count.
 * @throws {Error} When the manifest is missing or not JSON (comparing).
 */
export async function checkFixtures(
  dir: string,
  write = false,
): Promise<{ diff: string[]; files: number }> {
  const current = await scanFixtures(dir);
  if (write) {
    await Deno.writeTextFile(
      join(dir, FIXTURE_MANIFEST),
      stableJson({ files: current, schemaVersion: 1 }, { decimals: RESULT_DECIMALS }),
    );
    return { diff: [], files: current.length };
  }
  const recorded = JSON.parse(await Deno.readTextFile(join(dir, FIXTURE_MANIFEST)))
    .files as FixtureEntry[];
  return { diff: diffFixtures(recorded, current), files: current.length };
}
