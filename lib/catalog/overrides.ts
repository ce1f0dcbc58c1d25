/**
 * Tool-description overrides: a file that rewrites what a catalog's tools say about themselves
 * (`description`, `title`, parameter descriptions) without touching the servers, so one change
 * ("do these five rewritten descriptions fix the wrong-tool calls?") is measured on tokens,
 * retrieval and agent outcomes alike.
 *
 * The file (JSON, validated with zod by {@linkcode parseToolOverrides}):
 *
 * ```json
 * {
 *   "description": "why these rewrites (optional, not applied)",
 *   "overrides": {
 *     "filesystem:read_text_file": {
 *       "title": "Read a text file",
 *       "description": "Read a UTF-8 text file and return its contents.",
 *       "parameters": {
 *         "path": "Absolute path of the file.",
 *         "/properties/head": "Return only the first N lines."
 *       }
 *     }
 *   }
 * }
 * ```
 *
 * Keys are tool ids (`server:tool`, as in a corpus and in agent tool lists). A parameter key is
 * either a top-level parameter name (`properties[name]` of the `inputSchema`) or, starting with
 * `/`, an RFC 6901 JSON Pointer into the `inputSchema` naming the schema object whose
 * `description` is replaced (`/properties/options/properties/encoding`, `/$defs/Entry/...`).
 *
 * {@linkcode applyToolOverrides} is pure: it returns the rewritten tools, what was applied, and
 * one problem per key that names an unknown server, tool or parameter (recorded, never thrown,
 * so one stale key does not stop a run).
 *
 * @module
 */

import { z } from "zod";
import { canonicalJson, type JsonNode, jsonNodeCanonical, parseJsonLossless } from "./canonical.ts";
import { sha256Hex } from "./load.ts";
import { InputFileError } from "../core/errors.ts";
import type { JsonObject, JsonValue, Tool } from "./types.ts";

/** The replacement texts for one tool; every field optional, at least one given. */
export interface ToolOverride {
  /** New `title` (MCP 2025-06-18), shown where a client shows titles (the proxy's results). */
  readonly title?: string;
  /** New tool description. */
  readonly description?: string;
  /**
   * New parameter descriptions: parameter name (a `properties` key of the `inputSchema`) or a
   * JSON Pointer starting with `/` into the `inputSchema` → description text.
   */
  readonly parameters?: Readonly<Record<string, string>>;
}

/** A parsed overrides document. */
export interface ToolOverrides {
  /**
   * Path of the file the overrides were read from, as written (an agent's `overrides` path is
   * relative to the agent file); absent for inline overrides. Not part of the hash. Accepted in
   * a document too, so a resolved agent written back as JSON (a sweep's agents) reads the same.
   */
  readonly file?: string;
  /** Free-form note on what the rewrites are for; not applied, not hashed. */
  readonly description?: string;
  /** Tool id (`server:tool`) → its replacement texts. */
  readonly overrides: Readonly<Record<string, ToolOverride>>;
}

/** Why an override key, or one of its parameters, was not applied. */
export type OverrideProblemKind =
  | "unknown-server"
  | "unknown-tool"
  | "unknown-parameter"
  | "no-input-schema";

/** An override (or one parameter of it) that names nothing in the catalog. */
export interface OverrideProblem {
  /** The override's key as written (`server:tool`). */
  readonly key: string;
  /** The parameter key as written, for parameter problems. */
  readonly parameter?: string;
  /** What is wrong. */
  readonly kind: OverrideProblemKind;
  /** One line naming the key (and parameter) and the cause. */
  readonly message: string;
}

/** One tool an override changed. */
export interface AppliedOverride {
  /** Tool id. */
  readonly toolId: string;
  /**
   * Fields replaced, in a fixed order: `title`, `description`, then `parameters.<key>` per
   * parameter key as written (sorted).
   */
  readonly fields: readonly string[];
}

/** What {@linkcode applyToolOverrides} returns. */
export interface OverridesApplied {
  /** The tools, same order; a tool no override names is the same object as given. */
  readonly tools: Tool[];
  /** Tools changed, sorted by id. */
  readonly applied: readonly AppliedOverride[];
  /** Keys and parameters that named nothing, sorted by key then parameter. */
  readonly problems: readonly OverrideProblem[];
}

/** An overrides document that does not parse or validate; the message names file and field. */
export class ToolOverridesError extends InputFileError {
  /** Dotted field path of the fault, `""` for the whole document. */
  readonly field: string;
  /** What is wrong, without the file and field (e.g. `is not a known field`). */
  readonly problem: string;
  /**
   * Builds the one-line message.
   *
   * @param source File (or `<inline>`) the document came from.
   * @param field Field path, `""` for the document.
   * @param problem What is wrong.
   */
  constructor(source: string, field: string, problem: string) {
    super(
      source,
      `Cannot load tool overrides "${source}": ${
        field === "" ? "" : `field "${field}" `
      }${problem}`,
    );
    this.name = "ToolOverridesError";
    this.field = field;
    this.problem = problem;
  }
}

const OverrideSchema = z.strictObject({
  title: z.string().min(1).optional(),
  description: z.string().optional(),
  parameters: z.record(z.string().min(1), z.string()).optional(),
}).refine(
  (o) => o.title !== undefined || o.description !== undefined || o.parameters !== undefined,
  { message: "must give at least one of title, description, parameters" },
);

const DocumentSchema = z.strictObject({
  $schema: z.string().optional(),
  file: z.string().min(1).optional(),
  description: z.string().optional(),
  overrides: z.record(
    z.string().regex(/^[^:]+:.+$/, { message: "must be a tool id server:tool" }),
    OverrideSchema,
  ),
});

function fieldOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, p) =>
      typeof p === "number" ? `${acc}[${p}]` : acc === "" ? String(p) : `${acc}.${String(p)}`,
    "",
  );
}

/**
 * Parses and validates an overrides document.
 *
 * @param input JSON text, or an already parsed value (an agent's inline `overrides`).
 * @param source File name (or `<inline>`) for messages.
 * @param file Path recorded as {@linkcode ToolOverrides}`.file`; default: the document's own
 *   `file` field, if any (absent for inline overrides).
 * @returns The document, keys as written.
 * @throws {ToolOverridesError} On invalid JSON, an unknown field, a key that is not
 *   `server:tool`, an override with nothing to replace, or a parameter pointer that is not a
 *   valid JSON Pointer (`/` then `~0`/`~1` escapes only).
 *
 * @example Usage
 * ```ts
 * import { parseToolOverrides } from "./overrides.ts";
 * const o = parseToolOverrides('{"overrides": {"fs:read": {"description": "Read a file."}}}', "o.json");
 * if (o.overrides["fs:read"].description !== "Read a file.") throw new Error();
 * ```
 */
export function parseToolOverrides(
  input: unknown,
  source = "<inline>",
  file?: string,
): ToolOverrides {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (e) {
      throw new ToolOverridesError(source, "", `is not valid JSON (${(e as Error).message})`);
    }
  }
  const parsed = DocumentSchema.safeParse(value);
  if (!parsed.success) {
    let issue = parsed.error.issues[0];
    // A bad record key is reported with its own issues inside.
    if (issue.code === "invalid_key" && issue.issues.length > 0) {
      issue = { ...issue.issues[0], path: issue.path } as typeof issue;
    }
    const extra = issue.code === "unrecognized_keys" ? issue.keys[0] : undefined;
    const path = extra === undefined ? issue.path : [...issue.path, extra];
    throw new ToolOverridesError(
      source,
      fieldOf(path),
      extra === undefined ? issue.message : "is not a known field",
    );
  }
  const doc = parsed.data;
  for (const [key, o] of Object.entries(doc.overrides)) {
    for (const p of Object.keys(o.parameters ?? {})) {
      if (p.startsWith("/") && /~(?![01])/.test(p)) {
        throw new ToolOverridesError(
          source,
          `overrides.${key}.parameters.${p}`,
          "is not a JSON Pointer (~ must be followed by 0 or 1)",
        );
      }
    }
  }
  const overrides: Record<string, ToolOverride> = {};
  for (const key of Object.keys(doc.overrides).sort()) {
    const o = doc.overrides[key];
    overrides[key] = {
      ...(o.title === undefined ? {} : { title: o.title }),
      ...(o.description === undefined ? {} : { description: o.description }),
      ...(o.parameters === undefined ? {} : { parameters: { ...o.parameters } }),
    };
  }
  const from = file ?? doc.file;
  return {
    ...(from === undefined ? {} : { file: from }),
    ...(doc.description === undefined ? {} : { description: doc.description }),
    overrides,
  };
}

/**
 * SHA-256 of what an overrides document changes: the canonical JSON (keys sorted, no
 * whitespace) of its `overrides` map, so reformatting the file, editing its note or moving it
 * inline leaves the hash alone and any changed text changes it.
 *
 * @param overrides The document.
 * @returns 64 lower-case hex digits.
 */
export function toolOverridesSha256(overrides: ToolOverrides): Promise<string> {
  return sha256Hex(canonicalJson(overrides.overrides as unknown as JsonValue));
}

/** Pointer segments of a parameter key: a name is `properties/<name>`. */
function segmentsOf(parameter: string): string[] {
  if (!parameter.startsWith("/")) return ["properties", parameter];
  return parameter.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

const stringNode = (value: string): JsonNode => ({ kind: "string", value, start: 0, end: 0 });

/**
 * The tree with `description` of the object at `path` set to `text`, or `undefined` when the
 * path does not lead to an object. Only the nodes along the path are rebuilt.
 */
function setDescription(
  node: JsonNode,
  path: readonly string[],
  text: string,
): JsonNode | undefined {
  if (path.length === 0) {
    if (node.kind !== "object") return undefined;
    const members = [
      ...node.members.filter((m) => m.key !== "description"),
      { key: "description", node: stringNode(text) },
    ];
    return { ...node, members, value: { ...node.value, description: text } };
  }
  const [head, ...rest] = path;
  if (node.kind === "object") {
    const i = node.members.findIndex((m) => m.key === head);
    if (i < 0) return undefined;
    const child = setDescription(node.members[i].node, rest, text);
    if (child === undefined) return undefined;
    const members = node.members.map((m, j) => j === i ? { ...m, node: child } : m);
    return { ...node, members, value: { ...node.value, [head]: child.value } };
  }
  if (node.kind === "array" && /^(0|[1-9]\d*)$/.test(head) && Number(head) < node.items.length) {
    const i = Number(head);
    const child = setDescription(node.items[i], rest, text);
    if (child === undefined) return undefined;
    const items = node.items.map((n, j) => j === i ? child : n);
    return { ...node, items, value: items.map((n) => n.value) };
  }
  return undefined;
}

/**
 * The plain schema with `description` of the object at `path` set to `text`, keys in their
 * order (an existing `description` keeps its place, a new one comes last), or `undefined` when
 * the path does not lead to an object.
 */
function setDescriptionValue(
  value: JsonValue,
  path: readonly string[],
  text: string,
): JsonValue | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (path.length === 0) {
    return Array.isArray(value) ? undefined : { ...(value as JsonObject), description: text };
  }
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    if (!/^(0|[1-9]\d*)$/.test(head) || Number(head) >= value.length) return undefined;
    const child = setDescriptionValue(value[Number(head)], rest, text);
    return child === undefined ? undefined : value.map((v, i) => i === Number(head) ? child : v);
  }
  const obj = value as JsonObject;
  if (!Object.hasOwn(obj, head)) return undefined;
  const child = setDescriptionValue(obj[head], rest, text);
  return child === undefined ? undefined : { ...obj, [head]: child };
}

/**
 * Applies overrides to a catalog's tools.
 *
 * Each key is matched against tool ids exactly. A key whose server part (before the first `:`)
 * is no tool's server is an `unknown-server` problem, one whose server exists an
 * `unknown-tool`; a parameter that leads to no schema object is `unknown-parameter`
 * (`no-input-schema` when the tool has none). What does match is applied even when another
 * part of the same override is a problem. A rewritten schema keeps its key order (an existing
 * `description` keeps its place, a new one comes last in its object) and its number literals:
 * the new `inputSchemaCanonical` is the old canonical text with only the description changed.
 *
 * @param tools The catalog's tools (any order).
 * @param overrides A parsed document ({@linkcode parseToolOverrides}).
 * @returns The rewritten tools (same order), what was applied and the problems.
 *
 * @example Usage
 * ```ts
 * import { applyToolOverrides } from "./overrides.ts";
 * const tools = [{ id: "fs:read", server: "fs", name: "read", description: "Reads.",
 *   inputSchema: { type: "object", properties: { path: { type: "string" } } } }];
 * const out = applyToolOverrides(tools, { overrides: {
 *   "fs:read": { description: "Read a file.", parameters: { path: "Absolute path.", nope: "x" } },
 *   "git:log": { description: "Show the log." },
 * } });
 * const schema = out.tools[0].inputSchema as { properties: { path: { description: string } } };
 * if (out.tools[0].description !== "Read a file.") throw new Error();
 * if (schema.properties.path.description !== "Absolute path.") throw new Error();
 * if (out.problems.map((p) => p.kind).join() !== "unknown-parameter,unknown-server") throw new Error();
 * ```
 */
export function applyToolOverrides(
  tools: readonly Tool[],
  overrides: ToolOverrides,
): OverridesApplied {
  const byId = new Map(tools.map((t) => [t.id, t]));
  const servers = new Set(tools.map((t) => t.server));
  const problems: OverrideProblem[] = [];
  const applied: AppliedOverride[] = [];
  const replaced = new Map<string, Tool>();
  for (const key of Object.keys(overrides.overrides).sort()) {
    const o = overrides.overrides[key];
    const tool = byId.get(key);
    if (tool === undefined) {
      const server = key.slice(0, key.indexOf(":"));
      const kind = servers.has(server) ? "unknown-tool" : "unknown-server";
      problems.push({
        key,
        kind,
        message: kind === "unknown-server"
          ? `override "${key}": no server "${server}" in the catalog`
          : `override "${key}": server "${server}" lists no tool "${key.slice(server.length + 1)}"`,
      });
      continue;
    }
    const fields: string[] = [];
    let next: Tool = tool;
    if (o.title !== undefined) {
      next = { ...next, title: o.title };
      fields.push("title");
    }
    if (o.description !== undefined) {
      next = { ...next, description: o.description };
      fields.push("description");
    }
    const params = Object.keys(o.parameters ?? {}).sort();
    if (params.length > 0) {
      // The canonical text (number literals as written) and the parsed schema (keys in the
      // server's order, as sent to a model) are rewritten side by side.
      const text = next.inputSchemaCanonical ??
        (next.inputSchema === undefined ? undefined : canonicalJson(next.inputSchema));
      let tree = text === undefined ? undefined : parseJsonLossless(text);
      let schema: JsonValue | undefined = next.inputSchema;
      for (const p of params) {
        if (tree === undefined || schema === undefined) {
          problems.push({
            key,
            parameter: p,
            kind: "no-input-schema",
            message: `override "${key}" parameter "${p}": the tool has no inputSchema`,
          });
          continue;
        }
        const changed = setDescription(tree, segmentsOf(p), o.parameters![p]);
        const changedSchema = setDescriptionValue(schema, segmentsOf(p), o.parameters![p]);
        if (changed === undefined || changedSchema === undefined) {
          problems.push({
            key,
            parameter: p,
            kind: "unknown-parameter",
            message: p.startsWith("/")
              ? `override "${key}" parameter "${p}": the pointer leads to no schema object in the inputSchema`
              : `override "${key}" parameter "${p}": the inputSchema has no property "${p}"`,
          });
          continue;
        }
        tree = changed;
        schema = changedSchema;
        fields.push(`parameters.${p}`);
      }
      if (tree !== undefined && fields.some((f) => f.startsWith("parameters."))) {
        next = {
          ...next,
          inputSchema: schema as JsonObject,
          ...(next.inputSchemaCanonical === undefined
            ? {}
            : { inputSchemaCanonical: jsonNodeCanonical(tree) }),
        };
      }
    }
    if (fields.length > 0) {
      replaced.set(key, next);
      applied.push({ toolId: key, fields });
    }
  }
  problems.sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : (a.parameter ?? "") < (b.parameter ?? "") ? -1 : 1
  );
  return { tools: tools.map((t) => replaced.get(t.id) ?? t), applied, problems };
}
