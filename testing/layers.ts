/**
 * The layer rules of the repository, checked over its import graph (`lib/layers_test.ts` feeds it
 * the graph `deno info --json` resolves, plus the imports of the notebooks' code cells).
 *
 * Rules, each violation naming the offending edge (`file:line imports file`):
 * - no cycle between files, and none between `lib/` folders;
 * - a `lib/` or `tasks/` module never imports `testing/` (the test helpers), and a `lib/` module
 *   never imports `fixtures/` or `tasks/` (tests and the helpers in `testing/` may read fixtures);
 * - `tasks/` and `notebooks/` import `lib/` only through a folder's `mod.ts` or `io.ts` (tests of
 *   tasks may reach further), and notebooks import nothing but `lib/`;
 * - between `lib/` folders, imports go down {@linkcode LAYERS}: a folder imports only folders of a
 *   lower layer (same-layer folders stay independent).
 *
 * Pure: the caller reads the files and runs `deno info`.
 *
 * @module
 */

/** One resolved import: repository-relative paths, 1-based line of the specifier. */
export interface ImportEdge {
  /** Importing file, e.g. `lib/encodings/measure.ts`. */
  readonly from: string;
  /** Imported file, e.g. `lib/catalog/types.ts`. */
  readonly to: string;
  /** Line of the import in `from` (1-based). */
  readonly line: number;
}

/**
 * The `lib/` layers, bottom first. `lib/core` holds the shared vocabulary and helpers (errors,
 * JSON, secrets, the HTTP guard, the SDK shim, ...). A folder not listed here is itself a
 * violation.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["lib/core"],
  ["lib/tokens", "lib/stats"],
  ["lib/catalog"],
  ["lib/encodings"],
  ["lib/retrieval", "lib/mcp", "lib/modes"],
  ["lib/proxy"],
  ["lib/live", "lib/agent"],
  ["lib/sweep", "lib/billing"],
  ["lib/report", "lib/audit"],
  ["lib/flows"],
  ["lib/workbench"],
];

/** An edge the rules tolerate for now, with the reason (each one a TODO to remove). */
export interface AllowedEdge {
  /** Importing file. */
  readonly from: string;
  /** Imported file. */
  readonly to: string;
  /** Why it is tolerated and who removes it. */
  readonly why: string;
}

/** Test and benchmark files and test helpers: leaves that may read fixtures. */
export function isTestFile(path: string): boolean {
  return path.startsWith("testing/") || /(_test|_bench)\.ts$/.test(path);
}

/**
 * The unit a file belongs to for the folder rules: `lib/<folder>` (sub-folders count as their
 * folder), `lib` for files directly in `lib/` (tests only), or the top-level folder (`tasks`,
 * `notebooks`, `fixtures`, `testing`).
 *
 * @param path Repository-relative path.
 * @returns The unit name.
 */
export function unitOf(path: string): string {
  const parts = path.split("/");
  if (parts[0] !== "lib") return parts[0];
  if (parts.length === 2) return "lib";
  return `lib/${parts[1]}`;
}

const at = (e: ImportEdge) => `${e.from}:${e.line} imports ${e.to}`;

/** Whether `path` is a public surface file tasks and notebooks may import. */
function isSurface(path: string): boolean {
  return /^lib\/[a-z_]+(\/[a-z_]+)*\/(mod|io)\.ts$/.test(path);
}

/** Strongly connected components with more than one node (or a self-loop), Tarjan's algorithm. */
function cycles(nodes: readonly string[], next: (n: string) => readonly string[]): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || next(v).includes(v)) out.push(scc.sort());
    }
  };
  for (const n of [...nodes].sort()) if (!idx.has(n)) visit(n);
  return out.sort((a, b) => a[0] < b[0] ? -1 : 1);
}

/** A shortest path from `start` back to `start` inside one component, as nodes. */
function loopThrough(
  start: string,
  scc: ReadonlySet<string>,
  next: (n: string) => readonly string[],
): string[] {
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of next(v)) {
      if (!scc.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(prev.get(path[0])!);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/**
 * Checks the import graph against the layer rules.
 *
 * @param edges Every import between repository files (external packages left out).
 * @param options Layers (default {@linkcode LAYERS}) and tolerated edges.
 * @returns Violations, one line each naming the edge (empty when the graph keeps the rules),
 * sorted.
 *
 * @example Usage
 * ```ts
 * import { checkLayers } from "./layers.ts";
 * const bad = checkLayers([{ from: "lib/catalog/a.ts", to: "lib/report/b.ts", line: 3 }]);
 * if (!bad[0].includes("lib/catalog/a.ts:3 imports lib/report/b.ts")) throw new Error();
 * ```
 */
export function checkLayers(
  edges: readonly ImportEdge[],
  options: {
    readonly layers?: readonly (readonly string[])[];
    readonly allow?: readonly AllowedEdge[];
  } = {},
): string[] {
  const layers = options.layers ?? LAYERS;
  const allowed = new Set((options.allow ?? []).map((a) => `${a.from}\u0000${a.to}`));
  const live = edges.filter((e) => !allowed.has(`${e.from}\u0000${e.to}`));
  const rank = new Map<string, number>();
  layers.forEach((units, i) => units.forEach((u) => rank.set(u, i)));
  const out: string[] = [];

  // Files.
  const fileNext = new Map<string, string[]>();
  const lineOf = new Map<string, number>();
  for (const e of live) {
    fileNext.set(e.from, [...(fileNext.get(e.from) ?? []), e.to]);
    lineOf.set(`${e.from}\u0000${e.to}`, e.line);
  }
  const nextFile = (n: string) => fileNext.get(n) ?? [];
  const files = [...new Set(live.flatMap((e) => [e.from, e.to]))];
  for (const scc of cycles(files, nextFile)) {
    const loop = loopThrough(scc[0], new Set(scc), nextFile);
    const steps = loop.slice(0, -1).map((f, i) =>
      `${f}:${lineOf.get(`${f}\u0000${loop[i + 1]}`)} imports ${loop[i + 1]}`
    );
    out.push(`file cycle: ${steps.join("; ")}`);
  }

  // Folders of lib/.
  const folderEdges = new Map<string, ImportEdge>();
  for (const e of live) {
    if (isTestFile(e.from)) continue;
    const a = unitOf(e.from);
    const b = unitOf(e.to);
    if (a === b || !a.startsWith("lib") || !b.startsWith("lib")) continue;
    const key = `${a}\u0000${b}`;
    if (!folderEdges.has(key)) folderEdges.set(key, e);
  }
  const folderNext = new Map<string, string[]>();
  for (const key of folderEdges.keys()) {
    const [a, b] = key.split("\u0000");
    folderNext.set(a, [...(folderNext.get(a) ?? []), b]);
  }
  const nextFolder = (n: string) => folderNext.get(n) ?? [];
  const folders = [...new Set([...folderEdges.keys()].flatMap((k) => k.split("\u0000")))];
  for (const scc of cycles(folders, nextFolder)) {
    const loop = loopThrough(scc[0], new Set(scc), nextFolder);
    const steps = loop.slice(0, -1).map((f, i) => at(folderEdges.get(`${f}\u0000${loop[i + 1]}`)!));
    out.push(`folder cycle: ${loop.join(" -> ")} (${steps.join("; ")})`);
  }

  for (const e of live) {
    const a = unitOf(e.from);
    const b = unitOf(e.to);
    // Shipped code never imports the test helpers.
    if ((a.startsWith("lib") || a === "tasks") && b === "testing" && !isTestFile(e.from)) {
      out.push(`shipped code imports testing/: ${at(e)} (test helpers are for tests only)`);
    }
    // lib/ never reaches out to fixtures/ or tasks/.
    if (a.startsWith("lib") && (b === "fixtures" || b === "tasks") && !isTestFile(e.from)) {
      out.push(
        `lib imports ${b}/: ${at(e)} (embed the data in lib/ or load it at the edge, in tasks/)`,
      );
    }
    // tasks/ and notebooks/ use the public surface only.
    if (
      (a === "tasks" || a === "notebooks") && b.startsWith("lib") && !isSurface(e.to) &&
      !isTestFile(e.from)
    ) {
      out.push(`${a} reach past the surface: ${at(e)} (import lib/<folder>/mod.ts or io.ts)`);
    }
    if (a === "notebooks" && !b.startsWith("lib")) {
      out.push(`notebooks import only @lib/: ${at(e)} (move what they need into lib/)`);
    }
    // Layer order between lib/ folders.
    if (a !== b && a.startsWith("lib") && b.startsWith("lib") && !isTestFile(e.from)) {
      const ra = rank.get(a);
      const rb = rank.get(b);
      if (ra === undefined || rb === undefined) {
        out.push(`layer: ${at(e)} (${ra === undefined ? a : b} is in no layer of LAYERS)`);
      } else if (rb >= ra) {
        out.push(
          `layer: ${at(e)} (${a} is layer ${ra}, ${b} is layer ${rb}: imports go to a lower layer)`,
        );
      }
    }
  }
  return [...new Set(out)].sort();
}

/** The `deno info --json` shape this module reads. */
export interface DenoInfo {
  /** Modules of the graph. */
  readonly modules: readonly {
    readonly specifier: string;
    readonly dependencies?: readonly {
      readonly code?: {
        readonly specifier: string;
        readonly span: { readonly start: { readonly line: number } };
      };
      readonly type?: {
        readonly specifier: string;
        readonly span: { readonly start: { readonly line: number } };
      };
    }[];
  }[];
}

/**
 * The edges between repository files in a `deno info --json` graph.
 *
 * @param info Parsed `deno info --json` output.
 * @param root `file://` URL of the repository root, ending in `/`.
 * @returns Edges with repository-relative paths, code and type imports alike.
 */
export function edgesFromDenoInfo(info: DenoInfo, root: string): ImportEdge[] {
  const out: ImportEdge[] = [];
  for (const m of info.modules) {
    if (!m.specifier.startsWith(root)) continue;
    const from = m.specifier.slice(root.length);
    for (const dep of m.dependencies ?? []) {
      for (const target of [dep.code, dep.type]) {
        if (target === undefined || !target.specifier.startsWith(root)) continue;
        const to = target.specifier.slice(root.length);
        if (!out.some((e) => e.from === from && e.to === to)) {
          out.push({ from, to, line: target.span.start.line + 1 });
        }
      }
    }
  }
  return out;
}

/**
 * The imports of a notebook's code cells, resolved as the Deno kernel does (`@lib/` through the
 * import map, relative specifiers from the notebook's folder); packages are left out.
 *
 * @param path Repository-relative path of the `.ipynb` file.
 * @param text Its JSON text.
 * @returns Edges; `line` counts code-cell lines from the notebook's first code cell.
 */
export function notebookEdges(path: string, text: string): ImportEdge[] {
  const nb = JSON.parse(text) as {
    cells: { cell_type: string; source: string | string[] }[];
  };
  const code = nb.cells.filter((c) => c.cell_type === "code").map((c) =>
    Array.isArray(c.source) ? c.source.join("") : c.source
  ).join("\n");
  const dir = path.split("/").slice(0, -1);
  const out: ImportEdge[] = [];
  const lines = code.split("\n");
  const re = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;
  lines.forEach((line, i) => {
    for (const m of line.matchAll(re)) {
      const spec = m[1];
      let to: string | undefined;
      if (spec.startsWith("@lib/")) to = `lib/${spec.slice(5)}`;
      else if (spec.startsWith(".")) {
        const parts = [...dir];
        for (const p of spec.split("/")) {
          if (p === "..") parts.pop();
          else if (p !== ".") parts.push(p);
        }
        to = parts.join("/");
      }
      if (to !== undefined) out.push({ from: path, to, line: i + 1 });
    }
  });
  return out;
}
