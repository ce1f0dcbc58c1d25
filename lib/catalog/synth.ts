/**
 * Synthetic tool catalogs of any size, drawn from a reference corpus, to
 * measure how mcpmeter (and a registry) scales to tens of thousands of tools.
 *
 * A synthetic catalog holds whole servers. By default it starts with the
 * reference servers themselves, verbatim (so golden sets written for the
 * reference still find their tools): every tool value exactly as the reference
 * file has it, every field (`title`, `annotations`, `outputSchema`, `_meta`,
 * `execution`, whatever a tool carries), members in the file's order, number
 * literals as written, tools in listing order. Then it adds synthetic servers
 * until it has exactly the number of tools asked for. Each synthetic server is
 * a seeded rewrite of a randomly drawn reference server: the same number of
 * tools, each tool with the same fields in the same order and the same shape,
 * with every word of three letters or more replaced by a word of the same
 * length drawn from the reference's own vocabulary, weighted by frequency (one
 * consistent mapping per server). By the kind of each field:
 * - `name`: renamed word by word (camelCase humps and `_`-parts);
 * - `title`, `description`: words replaced;
 * - `inputSchema`, `outputSchema` (JSON Schemas): property names renamed (in
 *   `properties`, `required` and local `$ref` pointers, so a schema stays valid),
 *   `description` and `title` texts rewritten, data (`enum`, `const`, `default`,
 *   `examples`) and every other keyword kept;
 * - any other field (`annotations`, `_meta`, ...): keys and values kept, except a
 *   `title` or `description` text (rewritten) and a string that is the tool's
 *   name or one of its property names (renamed as they are).
 * A property name gets one new name per tool, distinct within the tool (`_2`,
 * `_3`, ... where two words drew the same replacement).
 * Server, tool name and description sizes, schema sizes and their joint
 * distribution therefore follow the reference, while no two synthetic texts
 * are copies (a counter cannot cheat with a whole-text cache).
 *
 * Same reference, size and seed: the same catalog, byte for byte.
 *
 * @module
 */
import { createRng, type Rng } from "../stats/prng.ts";
import {
  compareUtf8,
  type JsonMember,
  type JsonNode,
  type JsonObjectNode,
  parseJsonLossless,
} from "./canonical.ts";
import { type CatalogToolRow, catalogToolRows, parseCatalog } from "./parse.ts";
import type { Corpus, JsonObject, JsonValue } from "./types.ts";

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
  /**
   * Each `tools/list` item as compact JSON text (members in the template's order, number
   * literals as the reference wrote them): text, not values, since a JS object cannot keep an
   * integer-like key (`"10"`) where the file had it.
   */
  readonly tools: readonly string[];
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

/**
 * A reference corpus as the generator reads it: the validated corpus and each tool's row as
 * the file has it. Make one with {@linkcode synthReference} (or `loadSynthReference`, io.ts).
 */
export interface SynthReference {
  /** The corpus (`parseCatalog` of the file): its id and sha256 go into the catalog's `source`. */
  readonly corpus: Corpus;
  /** Servers sorted by name; each server's tools as MCP `tools/list` items, in listing order. */
  readonly servers: readonly {
    readonly name: string;
    readonly tools: readonly (readonly JsonMember[])[];
  }[];
  /** Words of the reference descriptions and names by length (with repeats: frequency-weighted). */
  readonly wordsByLength: ReadonlyMap<number, readonly string[]>;
}

const WORD = /\p{L}{3,}/gu;

/**
 * Reads a reference corpus for the generator from the catalog file's text (any format
 * `parseCatalog` reads; rows of the corpora formats become MCP items: `tool` → `name`,
 * `schema` → `inputSchema`, `server` and `tool_id` dropped; a provider's definitions likewise,
 * its schema field → `inputSchema`, its provider fields dropped).
 *
 * @param text The reference file's text.
 * @param options `path` (messages, defaults) and `sha256` (recorded in the catalog's `source`).
 * @returns The reference.
 * @throws {CatalogError} When `parseCatalog` rejects the text.
 */
export function synthReference(
  text: string,
  options: { readonly path?: string; readonly sha256?: string } = {},
): SynthReference {
  const parsed = parseCatalog(text, { path: options.path });
  const corpus = options.sha256 === undefined
    ? parsed
    : { ...parsed, provenance: { ...parsed.provenance, sha256: options.sha256 } };
  const { rows } = catalogToolRows(parseJsonLossless(text), {
    path: options.path,
    format: corpus.provenance.format,
  });
  const byServer = new Map<string, (readonly JsonMember[])[]>();
  for (const row of rows) {
    const server = row.server ?? stringMember(row.row, "server")!;
    let list = byServer.get(server);
    if (!list) byServer.set(server, list = []);
    list.push(mcpItem(row));
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
  return { corpus, servers, wordsByLength: words };
}

function stringMember(node: JsonNode, key: string): string | undefined {
  if (node.kind !== "object") return undefined;
  for (const m of node.members) if (m.key === key && m.node.kind === "string") return m.node.value;
  return undefined;
}

/** A row's members as an MCP `tools/list` item (the row itself for MCP-shaped formats). */
function mcpItem(spec: CatalogToolRow): readonly JsonMember[] {
  const members = (spec.row as JsonObjectNode).members;
  const mcpShaped = spec.nameKey === "name" && spec.schemaKey === "inputSchema" &&
    spec.server !== undefined && spec.idKey === undefined;
  if (mcpShaped) return members;
  const out: JsonMember[] = [];
  for (const m of members) {
    if (m.key === spec.nameKey) out.push({ key: "name", node: m.node });
    else if (m.key === spec.schemaKey) {
      // mcpproxy may carry the schema as JSON text; null is no schema (as parseCatalog reads it).
      if (m.node.kind === "null") continue;
      const node = m.node.kind === "string" ? parseJsonLossless(m.node.value) : m.node;
      out.push({ key: "inputSchema", node });
    } else if (
      m.key === "name" || m.key === "inputSchema" || m.key === spec.idKey ||
      (spec.server === undefined && m.key === "server") || spec.providerKeys?.has(m.key)
    ) continue;
    else out.push(m);
  }
  return out;
}

/** Splits an identifier into words at `_`, `-`, `.`, digits and camelCase humps. */
function splitWords(name: string): string[] {
  return name.replace(/([a-z])([A-Z])/g, "$1 $2").split(/[^A-Za-z]+/).filter(Boolean);
}

function checkOptions(ref: SynthReference, options: SynthOptions): void {
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
  if (ref.corpus.tools.length === 0) {
    throw new RangeError(
      `Cannot synthesize a catalog: reference corpus ${ref.corpus.id} has no tools`,
    );
  }
}

/**
 * Decides the servers of a synthetic catalog (cheap; no text is generated).
 *
 * @param ref Reference (e.g. `reference_v1`, from {@linkcode synthReference}).
 * @param options Size, seed, whether to include the reference verbatim.
 * @returns The plan: per server, its template and tool count; counts sum to `options.tools`.
 * @throws {RangeError} When `tools` is not a positive integer, `seed` not a safe
 *   integer, or the reference has no tools.
 */
export function planSynthCatalog(ref: SynthReference, options: SynthOptions): SynthPlan {
  checkOptions(ref, options);
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
 * @param ref Reference (from {@linkcode synthReference}).
 * @param options Size and seed (as given to {@linkcode planSynthCatalog}).
 * @returns The servers in catalog order; synthetic server names are
 *   `synth-<n>-<template server>` (n from 1), verbatim ones keep their names.
 * @throws {RangeError} As {@linkcode planSynthCatalog}.
 *
 * @example Usage
 * ```ts
 * import { synthReference, synthServers } from "./synth.ts";
 * const ref = synthReference(
 *   '{"tools": [{"name": "read_file", "title": "Read File", "description": "Read a file"}]}',
 *   { path: "fs.json" },
 * );
 * const servers = [...synthServers(ref, { tools: 3, seed: 1, includeReference: false })];
 * if (servers.reduce((n, s) => n + s.toolCount, 0) !== 3) throw new Error("size");
 * if (!("title" in JSON.parse(servers[0].tools[0]))) throw new Error("title dropped");
 * ```
 */
export function* synthServers(ref: SynthReference, options: SynthOptions): Generator<SynthServer> {
  const plan = planSynthCatalog(ref, options);
  let n = 0;
  for (let s = 0; s < plan.servers.length; s++) {
    const { template, tools, verbatim } = plan.servers[s];
    const source = ref.servers[template];
    if (verbatim) {
      yield {
        server: source.name,
        toolCount: tools,
        tools: source.tools.map(writeJson),
      };
      continue;
    }
    n++;
    // One generator per server, seeded from the catalog seed and the server's position,
    // so a server's text does not depend on how many words earlier servers drew.
    const rng = createRng((Math.imul(options.seed | 0, 0x9e3779b1) ^ (s + 1)) | 0);
    const rw = rewriter(ref, rng);
    const names = new Set<string>();
    const out: string[] = [];
    for (const members of source.tools.slice(0, tools)) {
      const original = members.find((m) => m.key === "name")?.node;
      let name: string | undefined;
      if (original?.kind === "string") {
        name = rw.identifier(original.value);
        for (let k = 2; names.has(name); k++) name = `${rw.identifier(original.value)}_${k}`;
        names.add(name);
      }
      out.push(rewriteTool(members, rw, name));
    }
    yield { server: `synth-${n}-${source.name}`, toolCount: out.length, tools: out };
  }
}

/** Word-for-word rewriting with one consistent mapping (per server). */
interface Rewriter {
  readonly text: (s: string) => string;
  readonly identifier: (s: string) => string;
}

function rewriter(ref: SynthReference, rng: Rng): Rewriter {
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
  return { text, identifier };
}

/** How a value is written: kept, as a JSON Schema, or as other tool data. */
type Mode = typeof KEEP | typeof SCHEMA | typeof DATA;
const KEEP = 0;
const SCHEMA = 1;
const DATA = 2;

const SCHEMA_FIELDS = new Set(["inputSchema", "outputSchema"]);
const TEXT_KEYS = new Set(["description", "title"]);
/** Schema keywords whose values are data, not schemas: kept as they are. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples"]);
/** Schema keywords whose values map names to schemas (names kept, schemas rewritten). */
const SCHEMA_MAPS = new Set(["$defs", "definitions", "patternProperties", "dependentSchemas"]);

/** One rewritten tool as compact JSON text. */
function rewriteTool(
  members: readonly JsonMember[],
  rw: Rewriter,
  name: string | undefined,
): string {
  // The tool's names (its own and its schemas' property names), renamed wherever other data
  // repeats them (e.g. `_meta` naming an argument).
  const properties = new Set<string>();
  for (const m of members) {
    if (SCHEMA_FIELDS.has(m.key)) collectPropertyNames(m.node, properties);
  }
  // One new name per property name of the tool, distinct within the tool (two words may draw
  // the same replacement), so no object gets a repeated key and every reference still points.
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const p of properties) {
    let to = rw.identifier(p);
    for (let k = 2; taken.has(to); k++) to = `${rw.identifier(p)}_${k}`;
    taken.add(to);
    names.set(p, to);
  }
  for (const m of members) {
    if (
      m.key === "name" && m.node.kind === "string" && name !== undefined && !names.has(m.node.value)
    ) {
      names.set(m.node.value, name);
    }
  }
  const ctx: WriteContext = { rw, names };
  const out: string[] = ["{"];
  members.forEach((m, i) => {
    out.push((i > 0 ? "," : "") + JSON.stringify(m.key) + ":");
    if (m.key === "name" && name !== undefined) out.push(JSON.stringify(name));
    else if (TEXT_KEYS.has(m.key) && m.node.kind === "string") {
      out.push(JSON.stringify(rw.text(m.node.value)));
    } else write(m.node, SCHEMA_FIELDS.has(m.key) ? SCHEMA : DATA, ctx, out);
  });
  out.push("}");
  return out.join("");
}

function collectPropertyNames(node: JsonNode, into: Set<string>): void {
  if (node.kind === "array") { for (const item of node.items) collectPropertyNames(item, into); }
  if (node.kind !== "object") return;
  for (const m of node.members) {
    if (DATA_KEYWORDS.has(m.key)) continue;
    if ((m.key === "properties" || SCHEMA_MAPS.has(m.key)) && m.node.kind === "object") {
      // Names, not keywords: a property called "enum" is a schema like any other.
      for (const p of m.node.members) {
        if (m.key === "properties") into.add(p.key);
        collectPropertyNames(p.node, into);
      }
    } else collectPropertyNames(m.node, into);
  }
}

interface WriteContext {
  readonly rw: Rewriter;
  /** The tool's names (its own, its property names) → their new names. */
  readonly names: ReadonlyMap<string, string>;
}

/** Compact JSON text of members, kept as they are (file order, literals as written). */
function writeJson(members: readonly JsonMember[]): string {
  const out: string[] = ["{"];
  members.forEach((m, i) => {
    out.push((i > 0 ? "," : "") + JSON.stringify(m.key) + ":");
    write(m.node, KEEP, undefined, out);
  });
  out.push("}");
  return out.join("");
}

function write(node: JsonNode, mode: Mode, ctx: WriteContext | undefined, out: string[]): void {
  switch (node.kind) {
    case "null":
      out.push("null");
      return;
    case "boolean":
      out.push(node.value ? "true" : "false");
      return;
    case "number":
      out.push(node.literal);
      return;
    case "string":
      out.push(
        JSON.stringify(mode === DATA ? ctx!.names.get(node.value) ?? node.value : node.value),
      );
      return;
    case "array":
      out.push("[");
      node.items.forEach((item, i) => {
        if (i > 0) out.push(",");
        write(item, mode, ctx, out);
      });
      out.push("]");
      return;
    case "object":
      out.push("{");
      node.members.forEach((m, i) => {
        out.push(i > 0 ? "," : "");
        writeMember(m, mode, ctx, out);
      });
      out.push("}");
      return;
  }
}

function writeMember(m: JsonMember, mode: Mode, ctx: WriteContext | undefined, out: string[]) {
  const { key, node } = m;
  if (mode === KEEP) {
    out.push(JSON.stringify(key) + ":");
    write(node, KEEP, ctx, out);
    return;
  }
  const rw = ctx!.rw;
  const names = ctx!.names;
  const rename = (p: string) => names.get(p) ?? rw.identifier(p);
  out.push(JSON.stringify(key) + ":");
  if (TEXT_KEYS.has(key) && node.kind === "string") {
    out.push(JSON.stringify(rw.text(node.value)));
  } else if (mode === DATA) {
    write(node, DATA, ctx, out);
  } else if (key === "properties" && node.kind === "object") {
    // Each property rewritten in the template's order (the seeded draws as before), then
    // written in the byte order of the new names, as a capture file sorts keys at every depth
    // (the reference's own are), so the rewrite keeps the reference's order.
    const renamed = node.members.map((p) => {
      const text: string[] = [];
      write(p.node, SCHEMA, ctx, text);
      return { key: rename(p.key), text: text.join("") };
    }).sort((a, b) => compareUtf8(a.key, b.key));
    out.push("{");
    renamed.forEach((p, i) => out.push((i > 0 ? "," : "") + JSON.stringify(p.key) + ":" + p.text));
    out.push("}");
  } else if (key === "required" && node.kind === "array") {
    out.push("[");
    node.items.forEach((item, i) => {
      if (i > 0) out.push(",");
      if (item.kind === "string") out.push(JSON.stringify(rename(item.value)));
      else write(item, KEEP, ctx, out);
    });
    out.push("]");
  } else if (key === "$ref" && node.kind === "string") {
    out.push(JSON.stringify(rewritePointer(node.value, rename)));
  } else if (DATA_KEYWORDS.has(key)) {
    write(node, KEEP, ctx, out);
  } else if (SCHEMA_MAPS.has(key) && node.kind === "object") {
    out.push("{");
    node.members.forEach((p, i) => {
      out.push((i > 0 ? "," : "") + JSON.stringify(p.key) + ":");
      write(p.node, SCHEMA, ctx, out);
    });
    out.push("}");
  } else {
    write(node, SCHEMA, ctx, out);
  }
}

/**
 * A local `$ref` (`#/properties/a/items/properties/b`) with the property names it passes
 * through renamed as the schema's `properties` are, so it still points where it did.
 */
function rewritePointer(ref: string, rename: (name: string) => string): string {
  if (!ref.startsWith("#/")) return ref;
  const parts = ref.slice(2).split("/");
  for (let i = 1; i < parts.length; i++) {
    if (parts[i - 1] !== "properties") continue;
    const name = parts[i].replaceAll("~1", "/").replaceAll("~0", "~");
    parts[i] = rename(name).replaceAll("~", "~0").replaceAll("/", "~1");
    i++; // the renamed name is not itself a keyword
  }
  return "#/" + parts.join("/");
}

/**
 * The whole synthetic catalog, in the pieces `deno task synth` writes: the header up to
 * `"servers":[`, each server (with its separating comma), then the rest of the header and a
 * line feed. Compact JSON, top-level keys sorted, so the bytes are deterministic.
 *
 * @param ref Reference (from {@linkcode synthReference}).
 * @param options Size and seed.
 * @returns Pieces of text, each with the number of tools it adds (0 for the header pieces).
 * @throws {RangeError} As {@linkcode planSynthCatalog}.
 */
export function* synthCatalogChunks(
  ref: SynthReference,
  options: SynthOptions,
): Generator<{ readonly text: string; readonly tools: number }> {
  const plan = planSynthCatalog(ref, options);
  const header = synthCatalogHeader(ref, options, plan.serverCount);
  const sorted = Object.fromEntries(
    Object.keys({ ...header, servers: [] }).sort().map((
      k,
    ) => [k, k === "servers" ? [] : header[k]]),
  );
  const headerJson = JSON.stringify(sorted);
  const cut = headerJson.indexOf('"servers":[]');
  yield { text: headerJson.slice(0, cut) + '"servers":[', tools: 0 };
  let first = true;
  for (const server of synthServers(ref, options)) {
    const text = `${first ? "" : ","}{"server":${
      JSON.stringify(server.server)
    },"toolCount":${server.toolCount},"tools":[${server.tools.join(",")}]}`;
    first = false;
    yield { text, tools: server.toolCount };
  }
  yield { text: "]" + headerJson.slice(cut + '"servers":[]'.length) + "\n", tools: 0 };
}

/**
 * The top-level fields of a synthetic catalog document, without `servers`.
 *
 * @param ref Reference (from {@linkcode synthReference}).
 * @param options Size and seed.
 * @param serverCount Number of servers (from the plan).
 * @returns `{format, formatVersion, id, serverCount, source, toolCount, version}`; `id` is
 *   `synth_<tools>_s<seed>`, `source` names the generator (and its version: 2 since every
 *   field of a tool is carried, 3 since renamed properties keep the keys in sorted order, as a
 *   capture file has them), reference and seed.
 */
export function synthCatalogHeader(
  ref: SynthReference,
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
      generatorVersion: 3,
      includeReference: options.includeReference ?? true,
      reference: ref.corpus.id,
      referenceSha256: ref.corpus.provenance.sha256 ?? null,
      seed: options.seed,
    },
    toolCount: options.tools,
    version: "1",
  } satisfies Record<string, JsonValue>;
}
