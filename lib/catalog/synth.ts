/**
 * Synthetic tool catalogs of any size, drawn from a reference corpus, to
 * measure how mcpmeter (and a registry) scales to tens of thousands of tools.
 *
 * A synthetic catalog holds whole servers. By default it starts with the
 * reference servers themselves, verbatim (so golden sets written for the
 * reference still find their tools), then adds synthetic servers until it has
 * exactly the number of tools asked for. Each synthetic server is a seeded
 * rewrite of a randomly drawn reference server: the same number of tools, each
 * tool with the same shape (name parts, description, `inputSchema` structure:
 * types, enums, defaults, nesting, required lists), but with every word of
 * three letters or more replaced by a word of the same length drawn from the
 * reference's own vocabulary, weighted by frequency (one consistent mapping
 * per server), and property names renamed the same way. Server, tool name and
 * description sizes, schema sizes and their joint distribution therefore follow
 * the reference, while no two synthetic texts are copies (a counter cannot
 * cheat with a whole-text cache).
 *
 * Same reference, size and seed: the same catalog, byte for byte.
 *
 * @module
 */
import { createRng, type Rng } from "../stats/prng.ts";
import type { Corpus, JsonObject, JsonValue, Tool } from "./types.ts";

/** Options of {@linkcode planSynthCatalog} / {@linkcode synthServers}. */
export interface SynthOptions {
  /** Number of tools of the catalog (a positive integer). */
  readonly tools: number;
  /** Seed of every random choice (a safe integer; recorded in the catalog's `source`). */
  readonly seed: number;
  /**
   * Start with the reference servers verbatim (as many whole servers as fit).
   * Default `true`.
   */
  readonly includeReference?: boolean;
}

/** One server of a synthetic catalog, in the `mcpmeter-capture` shape. */
export interface SynthServer {
  /** Server name, unique within the catalog. */
  readonly server: string;
  /** Number of tools (`tools.length`). */
  readonly toolCount: number;
  /** `tools/list` items: name, description, inputSchema when the template had one. */
  readonly tools: readonly {
    readonly name: string;
    readonly description: string;
    readonly inputSchema?: JsonObject;
  }[];
}

/** The plan of a synthetic catalog: which reference server each server comes from. */
export interface SynthPlan {
  /** Tools in the catalog (= options.tools). */
  readonly toolCount: number;
  /** Servers in the catalog. */
  readonly serverCount: number;
  /** Per server: reference server index, tools taken from it, and whether it is verbatim. */
  readonly servers: readonly {
    readonly template: number;
    readonly tools: number;
    readonly verbatim: boolean;
  }[];
}

interface Reference {
  readonly servers: readonly { readonly name: string; readonly tools: readonly Tool[] }[];
  /** Words of the reference descriptions and names by length (with repeats: frequency-weighted). */
  readonly wordsByLength: ReadonlyMap<number, readonly string[]>;
}

const WORD = /\p{L}{3,}/gu;
const referenceCache = new WeakMap<Corpus, Reference>();

function referenceOf(corpus: Corpus): Reference {
  const cached = referenceCache.get(corpus);
  if (cached) return cached;
  const byServer = new Map<string, Tool[]>();
  for (const tool of corpus.tools) {
    let list = byServer.get(tool.server);
    if (!list) byServer.set(tool.server, list = []);
    list.push(tool);
  }
  const servers = [...byServer.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, tools]) => ({ name, tools }));
  const words = new Map<number, string[]>();
  const add = (text: string) => {
    for (const [w] of text.matchAll(WORD)) {
      const lower = w.toLowerCase();
      let list = words.get(lower.length);
      if (!list) words.set(lower.length, list = []);
      list.push(lower);
    }
  };
  for (const tool of corpus.tools) {
    add(tool.description);
    add(splitWords(tool.name).join(" "));
  }
  const ref = { servers, wordsByLength: words };
  referenceCache.set(corpus, ref);
  return ref;
}

/** Splits an identifier into words at `_`, `-`, `.`, digits and camelCase humps. */
function splitWords(name: string): string[] {
  return name.replace(/([a-z])([A-Z])/g, "$1 $2").split(/[^A-Za-z]+/).filter(Boolean);
}

function checkOptions(corpus: Corpus, options: SynthOptions): void {
  if (!Number.isSafeInteger(options.tools) || options.tools < 1) {
    throw new RangeError(
      `Cannot synthesize a catalog: tools must be a positive integer, got ${options.tools}`,
    );
  }
  if (!Number.isSafeInteger(options.seed)) {
    throw new RangeError(
      `Cannot synthesize a catalog: seed must be a safe integer, got ${options.seed}`,
    );
  }
  if (corpus.tools.length === 0) {
    throw new RangeError(`Cannot synthesize a catalog: reference corpus ${corpus.id} has no tools`);
  }
}

/**
 * Decides the servers of a synthetic catalog (cheap; no text is generated).
 *
 * @param corpus Reference corpus (e.g. `reference_v1`).
 * @param options Size, seed, whether to include the reference verbatim.
 * @returns The plan: per server, its template and tool count; counts sum to `options.tools`.
 * @throws {RangeError} When `tools` is not a positive integer, `seed` not a safe
 *   integer, or the reference has no tools.
 */
export function planSynthCatalog(corpus: Corpus, options: SynthOptions): SynthPlan {
  checkOptions(corpus, options);
  const ref = referenceOf(corpus);
  const rng = createRng(options.seed);
  const servers: { template: number; tools: number; verbatim: boolean }[] = [];
  let left = options.tools;
  if (options.includeReference ?? true) {
    for (let i = 0; i < ref.servers.length && left > 0; i++) {
      const size = ref.servers[i].tools.length;
      if (size > left) break;
      servers.push({ template: i, tools: size, verbatim: true });
      left -= size;
    }
  }
  while (left > 0) {
    const template = rng.int(ref.servers.length);
    const size = Math.min(ref.servers[template].tools.length, left);
    servers.push({ template, tools: size, verbatim: false });
    left -= size;
  }
  return { toolCount: options.tools, serverCount: servers.length, servers };
}

/**
 * Generates the servers of a synthetic catalog, one at a time (a 100,000-tool
 * catalog need never be held whole).
 *
 * @param corpus Reference corpus.
 * @param options Size and seed (as given to {@linkcode planSynthCatalog}).
 * @returns The servers in catalog order; synthetic server names are
 *   `synth-<n>-<template server>` (n from 1), verbatim ones keep their names.
 * @throws {RangeError} As {@linkcode planSynthCatalog}.
 *
 * @example Usage
 * ```ts
 * import { parseCatalog } from "./parse.ts";
 * import { synthServers } from "./synth.ts";
 * const ref = parseCatalog(
 *   '{"tools": [{"name": "read_file", "description": "Read the complete contents of a file"}]}',
 *   { server: "fs" },
 * );
 * const servers = [...synthServers(ref, { tools: 3, seed: 1, includeReference: false })];
 * if (servers.reduce((n, s) => n + s.toolCount, 0) !== 3) throw new Error("size");
 * ```
 */
export function* synthServers(corpus: Corpus, options: SynthOptions): Generator<SynthServer> {
  const plan = planSynthCatalog(corpus, options);
  const ref = referenceOf(corpus);
  let n = 0;
  for (let s = 0; s < plan.servers.length; s++) {
    const { template, tools, verbatim } = plan.servers[s];
    const source = ref.servers[template];
    if (verbatim) {
      yield {
        server: source.name,
        toolCount: tools,
        tools: source.tools.map((t) => ({
          name: t.name,
          description: t.description,
          ...(t.inputSchema === undefined ? {} : { inputSchema: t.inputSchema }),
        })),
      };
      continue;
    }
    n++;
    // One generator per server, seeded from the catalog seed and the server's position,
    // so a server's text does not depend on how many words earlier servers drew.
    const rng = createRng((Math.imul(options.seed | 0, 0x9e3779b1) ^ (s + 1)) | 0);
    const rewrite = rewriter(ref, rng);
    const names = new Set<string>();
    const out = [];
    for (const tool of source.tools.slice(0, tools)) {
      let name = rewrite.identifier(tool.name);
      for (let k = 2; names.has(name); k++) name = `${rewrite.identifier(tool.name)}_${k}`;
      names.add(name);
      out.push({
        name,
        description: rewrite.text(tool.description),
        ...(tool.inputSchema === undefined
          ? {}
          : { inputSchema: rewrite.schema(tool.inputSchema) }),
      });
    }
    yield { server: `synth-${n}-${source.name}`, toolCount: out.length, tools: out };
  }
}

/** Word-for-word rewriting with one consistent mapping (per server). */
function rewriter(ref: Reference, rng: Rng) {
  const mapping = new Map<string, string>();
  const word = (w: string): string => {
    const lower = w.toLowerCase();
    let to = mapping.get(lower);
    if (to === undefined) {
      const pool = ref.wordsByLength.get(lower.length);
      to = pool && pool.length > 0 ? pool[rng.int(pool.length)] : lower;
      mapping.set(lower, to);
    }
    if (w.length > 1 && w === w.toUpperCase() && w !== lower) return to.toUpperCase();
    if (w[0] !== lower[0]) return to[0].toUpperCase() + to.slice(1);
    return to;
  };
  const text = (s: string): string => s.replace(WORD, word);
  const identifier = (s: string): string =>
    s.replace(/[A-Za-z][a-z]*|[A-Z]+(?![a-z])/g, (w) => w.length >= 3 ? word(w) : w);
  const schema = (node: JsonObject): JsonObject =>
    rewriteSchema(node, text, identifier) as JsonObject;
  return { text, identifier, schema };
}

const TEXT_KEYS = new Set(["description", "title"]);

function rewriteSchema(
  node: JsonValue,
  text: (s: string) => string,
  identifier: (s: string) => string,
): JsonValue {
  if (Array.isArray(node)) return node.map((v) => rewriteSchema(v, text, identifier));
  if (node === null || typeof node !== "object") return node;
  const obj = node as JsonObject;
  const out: Record<string, JsonValue> = {};
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (
      key === "properties" && value !== null && typeof value === "object" && !Array.isArray(value)
    ) {
      const props: Record<string, JsonValue> = {};
      for (const prop of Object.keys(value)) {
        props[identifier(prop)] = rewriteSchema((value as JsonObject)[prop], text, identifier);
      }
      out[key] = props;
    } else if (key === "required" && Array.isArray(value)) {
      out[key] = value.map((v) => (typeof v === "string" ? identifier(v) : v));
    } else if (TEXT_KEYS.has(key) && typeof value === "string") {
      out[key] = text(value);
    } else {
      out[key] = rewriteSchema(value, text, identifier);
    }
  }
  return out;
}

/**
 * The whole synthetic catalog as one `mcpmeter-capture` document (for small
 * sizes and tests; tasks stream {@linkcode synthServers} instead).
 *
 * @param corpus Reference corpus.
 * @param options Size and seed.
 * @returns `{format, formatVersion, id, serverCount, servers, source, toolCount, version}`.
 * @throws {RangeError} As {@linkcode planSynthCatalog}.
 */
export function synthCatalogDocument(corpus: Corpus, options: SynthOptions): JsonObject {
  const servers = [...synthServers(corpus, options)];
  return {
    ...synthCatalogHeader(corpus, options, servers.length),
    servers: servers as unknown as JsonValue,
  };
}

/**
 * The top-level fields of a synthetic catalog document, without `servers`.
 *
 * @param corpus Reference corpus.
 * @param options Size and seed.
 * @param serverCount Number of servers (from the plan).
 * @returns `{format, formatVersion, id, serverCount, source, toolCount, version}`; `id` is
 *   `synth_<tools>_s<seed>`, `source` names the generator, reference and seed.
 */
export function synthCatalogHeader(
  corpus: Corpus,
  options: SynthOptions,
  serverCount: number,
): JsonObject {
  return {
    format: "mcpmeter-capture",
    formatVersion: 1,
    id: `synth_${options.tools}_s${options.seed}`,
    serverCount,
    source: {
      generator: "lib/catalog/synth.ts",
      includeReference: options.includeReference ?? true,
      reference: corpus.id,
      referenceSha256: corpus.provenance.sha256 ?? null,
      seed: options.seed,
    },
    toolCount: options.tools,
    version: "1",
  };
}
