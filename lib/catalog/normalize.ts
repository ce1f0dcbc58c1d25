/**
 * Provider-specific normalization of a tool's `inputSchema`: the smallest
 * changes that make a provider accept it, each one recorded.
 *
 * @module
 */
import { compareUtf8 } from "./canonical.ts";
import type { JsonObject, JsonValue, Tool } from "./types.ts";
import {
  asObject,
  cloneJson,
  collectRefs,
  pointer,
  recursiveTargets,
  resolveRef,
  walkSchemas,
} from "./_schema.ts";

/**
 * Tool-schema dialects {@linkcode normalizeForProvider} targets: the `inputSchema` rules of a
 * vendor's tool API. The agent's provider registry (`lib/agent/providers/registry.ts`) names the
 * dialect each provider speaks; `gemini` (the OpenAPI subset of Gemini's `parameters`) has rules
 * here and no agent provider yet. `json-schema` is a field that takes JSON Schema as it is
 * (Gemini's `parametersJsonSchema`): only a missing schema is filled in.
 */
export type SchemaDialect = "openai" | "anthropic" | "gemini" | "json-schema";

/** The schema dialects, in report order. */
export const SCHEMA_DIALECTS: readonly SchemaDialect[] = [
  "openai",
  "anthropic",
  "gemini",
  "json-schema",
];

/** Kinds of change {@linkcode normalizeForProvider} makes. */
export type NormalizationChangeKind =
  | "add-schema"
  | "add-type-object"
  | "add-properties"
  | "drop-unresolved-ref"
  | "inline-refs"
  | "cut-recursive-ref"
  | "inline-aborted"
  | "merge-top-level-combinator"
  | "narrow-type-array"
  | "narrow-items-anyof"
  | "drop-null-branch"
  | "drop-keywords";

/** One change made to the schema. */
export interface NormalizationChange {
  /** What kind of change. */
  readonly kind: NormalizationChangeKind;
  /** JSON Pointer (in the raw schema) where it applies; `#` for the root. */
  readonly path: string;
  /** What was done, quoting values. */
  readonly detail: string;
  /** True when information was lost (alternatives, constraints, recursion depth). */
  readonly lossy: boolean;
}

/** Result of {@linkcode normalizeForProvider}. */
export interface NormalizedSchema {
  /** The provider normalized for. */
  readonly provider: SchemaDialect;
  /** `server:name` of the tool. */
  readonly toolId: string;
  /**
   * The adjusted schema: a new object, or the tool's own schema when nothing had to change
   * (read it, never modify it; the tool is never modified).
   */
  readonly schema: JsonObject;
  /** Changes in the order they were made; empty when the schema was fine. */
  readonly changes: readonly NormalizationChange[];
  /** The raw tool definition, unchanged. */
  readonly raw: Tool;
}

/** Options of {@linkcode normalizeForProvider}. */
export interface NormalizeForProviderOptions {
  /**
   * Most schema objects `$ref` inlining may create before it gives up and
   * keeps the refs (recorded as `inline-aborted`).
   * @default {100000}
   */
  readonly maxInlineNodes?: number;
}

/** Keywords Gemini's function-declaration Schema accepts (the OpenAPI 3.0 subset it documents). */
const GEMINI_KEYWORDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);

type Mutable = { [key: string]: JsonValue };

/** Thrown inside {@linkcode inlineRefs} when a budget is spent: its message says which. */
class InlineBudget extends Error {}

/**
 * Deepest nesting {@linkcode inlineRefs} copies (its copy recurses): a deeper schema keeps its
 * `$ref`s, as one past the node budget does.
 */
const MAX_INLINE_DEPTH = 1_000;

/** Inlines local refs; a ref that re-enters its own target becomes `{"type":"object"}`. */
function inlineRefs(
  root: JsonObject,
  maxNodes: number,
  changes: NormalizationChange[],
): JsonObject {
  let created = 0;
  const cuts = new Set<string>();
  // Each ref's target and pointer, resolved once: the root is only read while it is copied.
  const targets = new Map<string, { key: string; node: JsonValue } | null>();
  const target = (ref: string) => {
    let t = targets.get(ref);
    if (t === undefined) {
      const found = resolveRef(root, ref);
      t = found === undefined ? null : { key: pointer(found.path), node: found.node };
      targets.set(ref, t);
    }
    return t;
  };
  const copy = (value: JsonValue, active: ReadonlySet<string>, depth = 0): JsonValue => {
    if (depth > MAX_INLINE_DEPTH) {
      throw new InlineBudget(`the schema nests deeper than ${MAX_INLINE_DEPTH} levels`);
    }
    if (Array.isArray(value)) return value.map((v) => copy(v, active, depth + 1));
    const obj = asObject(value);
    if (obj === undefined) return value;
    if (++created > maxNodes) {
      throw new InlineBudget(`inlining would create more than ${maxNodes} schema objects`);
    }
    if (typeof obj.$ref === "string") {
      const to = target(obj.$ref);
      if (to !== null) {
        const key = to.key;
        const siblings: Mutable = {};
        for (const k of Object.keys(obj)) {
          if (k !== "$ref") siblings[k] = copy(obj[k], active, depth + 1);
        }
        if (active.has(key)) {
          cuts.add(key);
          return { type: "object", ...siblings };
        }
        const inlined = asObject(copy(to.node, new Set([...active, key]), depth + 1)) ?? {};
        return { ...inlined, ...siblings };
      }
    }
    const out: Mutable = {};
    for (const k of Object.keys(obj)) out[k] = copy(obj[k], active, depth + 1);
    return out;
  };
  const out = copy(root, new Set()) as Mutable;
  delete out.$defs;
  delete out.definitions;
  for (const key of [...cuts].sort(compareUtf8)) {
    changes.push({
      kind: "cut-recursive-ref",
      path: key,
      detail: `recursive $ref to ${key} replaced by {"type":"object"} where it re-enters itself`,
      lossy: true,
    });
  }
  return out;
}

/** True for a `{"type":"null"}` branch (or `{"type":["null"]}`). */
function isNullSchema(value: JsonValue): boolean {
  const obj = asObject(value);
  if (obj === undefined) return false;
  return obj.type === "null" ||
    (Array.isArray(obj.type) && obj.type.length === 1 && obj.type[0] === "null");
}

/** Copies a branch's keywords into `m` where `m` has none of its own. */
function mergeBranch(m: Mutable, branch: JsonObject): void {
  for (const k of Object.keys(branch)) if (!Object.hasOwn(m, k)) m[k] = branch[k];
}

/** Gemini: a `type` array becomes its first non-null type, plus `nullable` when it held null. */
function narrowTypeArray(m: Mutable, path: readonly string[], changes: NormalizationChange[]) {
  const all = m.type as JsonValue[];
  const types = all.filter((t) => t !== "null");
  const nullable = types.length < all.length;
  changes.push({
    kind: "narrow-type-array",
    path: pointer(path),
    detail: `"type" ${JSON.stringify(all)} became ${JSON.stringify(types[0] ?? null)}${
      nullable ? " with nullable" : ""
    }`,
    lossy: types.length > 1 || types.length === 0,
  });
  if (types.length === 0) delete m.type;
  else m.type = types[0];
  if (nullable) m.nullable = true;
}

/**
 * Gemini: `{"type":"null"}` branches of an `anyOf`/`oneOf` become `nullable`;
 * a single remaining branch is merged into the node.
 */
function dropNullBranches(
  m: Mutable,
  key: "anyOf" | "oneOf",
  path: readonly string[],
  changes: NormalizationChange[],
) {
  const branches = m[key] as JsonValue[];
  const rest = branches.filter((b) => !isNullSchema(b));
  changes.push({
    kind: "drop-null-branch",
    path: pointer(path),
    detail: `"${key}" lost its {"type":"null"} branch, now "nullable": true${
      rest.length === 1 ? ` and the remaining branch merged` : ""
    }`,
    lossy: false,
  });
  m.nullable = true;
  if (rest.length === 1) {
    delete m[key];
    mergeBranch(m, asObject(rest[0]) ?? {});
  } else if (rest.length === 0) {
    delete m[key];
  } else {
    m[key] = rest;
  }
}

/**
 * Whether {@linkcode normalizeForProvider} would change nothing in `schema`: its checks, read
 * only (no `$ref`, no top-level combinator, a `type`, OpenAI's `properties`, Gemini's subset),
 * so that a schema that needs nothing is neither copied nor walked again.
 */
function needsNothing(schema: JsonObject, provider: SchemaDialect): boolean {
  for (const key of ["allOf", "anyOf", "oneOf"] as const) {
    if (Array.isArray(schema[key])) return false;
  }
  if (!Object.hasOwn(schema, "type")) return false;
  if (provider === "openai" && asObject(schema.properties) === undefined) return false;
  let nothing = true;
  walkSchemas(schema, ({ node, insideItems }) => {
    if (!nothing) return;
    if (Object.hasOwn(node, "$ref") && typeof node.$ref === "string") nothing = false;
    else if (provider === "gemini") {
      nothing = !Array.isArray(node.type) &&
        !(Array.isArray(node.anyOf) && node.anyOf.some(isNullSchema)) &&
        !(Array.isArray(node.oneOf) && node.oneOf.some(isNullSchema)) &&
        !(insideItems && Array.isArray(node.anyOf)) &&
        Object.keys(node).every((k) => GEMINI_KEYWORDS.has(k));
    }
  });
  return nothing;
}

/**
 * Adjusts a tool's `inputSchema` so that a provider's tool API accepts it,
 * and lists every change. The raw definition is returned unchanged beside it.
 *
 * Changes, in order (for `json-schema` only the first):
 * - no schema: `{"type":"object","properties":{}}` (`add-schema`);
 * - unresolved `$ref`s dropped (`drop-unresolved-ref`, all providers);
 * - local `$ref`s inlined and `$defs`/`definitions` removed (`inline-refs`):
 *   always for Gemini (no `$ref` support; recursion cut at re-entry,
 *   `cut-recursive-ref`); for OpenAI and Anthropic, which accept `$defs`,
 *   only when the root itself is a `$ref` and no ref is recursive (so that the
 *   top level is an object schema), else the refs and `$defs` stay as the
 *   server wrote them, as MCP clients send them;
 * - top-level `anyOf`/`oneOf`/`allOf` merged into one object
 *   (`merge-top-level-combinator`, all providers): properties united (first
 *   definition wins), `required` united for `allOf`, intersected otherwise;
 * - missing top-level `type` set to `"object"` (`add-type-object`);
 * - OpenAI: missing `properties` set to `{}` (`add-properties`);
 * - Gemini: `type` arrays become one type plus `nullable` (`narrow-type-array`),
 *   `{"type":"null"}` branches of `anyOf`/`oneOf` become `nullable`, a lone
 *   remaining branch merged into its parent (`drop-null-branch`),
 *   `anyOf` inside `items` keeps its first branch (`narrow-items-anyof`),
 *   repeated until the node holds none of these, and
 *   keywords outside Gemini's schema subset are dropped (`drop-keywords`).
 *
 * Tool names are not changed; see the `name-invalid` lint rule.
 *
 * @param tool The tool; never modified.
 * @param provider `openai`, `anthropic`, `gemini` or `json-schema`.
 * @param options Inlining budget.
 * @returns The adjusted schema, the changes and the raw tool.
 * @throws {RangeError} When `provider` is not known.
 *
 * @example Usage
 * ```ts
 * import { normalizeForProvider } from "./normalize.ts";
 * const tool = { id: "s:t", server: "s", name: "t", description: "",
 *   inputSchema: { $schema: "http://json-schema.org/draft-07/schema#" } };
 * const out = normalizeForProvider(tool, "openai");
 * if (JSON.stringify(out.schema) !== '{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{}}') {
 *   throw new Error(JSON.stringify(out.schema));
 * }
 * if (out.changes.map((c) => c.kind).join() !== "add-type-object,add-properties") throw new Error();
 * ```
 */
export function normalizeForProvider(
  tool: Tool,
  provider: SchemaDialect,
  options: NormalizeForProviderOptions = {},
): NormalizedSchema {
  if (!SCHEMA_DIALECTS.includes(provider)) {
    throw new RangeError(
      `Cannot normalize for provider "${provider}" as it is not known (expected ${
        SCHEMA_DIALECTS.join(", ")
      })`,
    );
  }
  if (
    tool.inputSchema !== undefined &&
    (provider === "json-schema" || needsNothing(tool.inputSchema, provider))
  ) {
    return { provider, toolId: tool.id, schema: tool.inputSchema, changes: [], raw: tool };
  }
  const maxNodes = options.maxInlineNodes ?? 100_000;
  const changes: NormalizationChange[] = [];
  let schema: Mutable;
  if (tool.inputSchema === undefined) {
    schema = { type: "object", properties: {} };
    changes.push({
      kind: "add-schema",
      path: "#",
      detail: "no inputSchema: used an empty object schema",
      lossy: false,
    });
  } else {
    schema = cloneJson(tool.inputSchema) as Mutable;
  }

  // References.
  const refs = collectRefs(schema);
  const unresolved = refs.filter((r) => r.target === undefined);
  if (unresolved.length > 0) {
    walkSchemas(schema, ({ node, path }) => {
      if (typeof node.$ref === "string" && resolveRef(schema, node.$ref) === undefined) {
        changes.push({
          kind: "drop-unresolved-ref",
          path: pointer(path()),
          detail: `dropped $ref ${JSON.stringify(node.$ref)}, which does not resolve`,
          lossy: true,
        });
        delete (node as Mutable).$ref;
      }
    });
  }
  const resolved = refs.filter((r) => r.target !== undefined);
  if (resolved.length > 0) {
    const recursive = recursiveTargets(resolved);
    const rootRef = typeof schema.$ref === "string";
    if (provider === "gemini" || (rootRef && recursive.size === 0)) {
      const before = changes.length;
      try {
        schema = inlineRefs(schema, maxNodes, changes) as Mutable;
        changes.splice(before, 0, {
          kind: "inline-refs",
          path: "#",
          detail: `inlined ${resolved.length} $ref(s) and removed $defs/definitions`,
          lossy: false,
        });
      } catch (error) {
        if (!(error instanceof InlineBudget)) throw error;
        changes.splice(before);
        changes.push({
          kind: "inline-aborted",
          path: "#",
          detail: `${error.message}; $refs kept`,
          lossy: false,
        });
      }
    }
  }

  // Top-level combinators.
  for (const key of ["allOf", "anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const properties: Mutable = { ...(asObject(schema.properties) ?? {}) };
    const required: string[] = Array.isArray(schema.required)
      ? schema.required.filter((r): r is string => typeof r === "string")
      : [];
    const branchRequired: string[][] = [];
    for (const b of branches) {
      const branch = asObject(b);
      if (branch === undefined) continue;
      const props = asObject(branch.properties) ?? {};
      for (const name of Object.keys(props)) {
        if (!Object.hasOwn(properties, name)) properties[name] = props[name];
      }
      branchRequired.push(
        Array.isArray(branch.required)
          ? branch.required.filter((r): r is string => typeof r === "string")
          : [],
      );
    }
    if (key === "allOf") {
      for (const r of branchRequired.flat()) if (!required.includes(r)) required.push(r);
    } else if (branchRequired.length > 0) {
      const common = branchRequired.reduce((a, b) => a.filter((x) => b.includes(x)));
      for (const r of common) if (!required.includes(r)) required.push(r);
    }
    delete schema[key];
    schema.properties = properties;
    if (required.length > 0) schema.required = required;
    else delete schema.required;
    changes.push({
      kind: "merge-top-level-combinator",
      path: `#/${key}`,
      detail: `merged ${branches.length} "${key}" branches into one object schema`,
      lossy: key !== "allOf",
    });
  }

  if (!Object.hasOwn(schema, "type")) {
    schema.type = "object";
    changes.push({
      kind: "add-type-object",
      path: "#",
      detail: 'added "type": "object"',
      lossy: false,
    });
  }
  if (provider === "openai" && asObject(schema.properties) === undefined) {
    schema.properties = {};
    changes.push({
      kind: "add-properties",
      path: "#",
      detail: 'added empty "properties"',
      lossy: false,
    });
  }

  if (provider === "gemini") {
    const dropped = new Map<string, number>();
    walkSchemas(schema, ({ node, path, insideItems }) => {
      const m = node as Mutable;
      // Repeat until the node is settled: a merged anyOf branch may bring its own type
      // array, null branch or nested anyOf, which must be narrowed at this node too.
      for (let settled = false; !settled;) {
        settled = true;
        if (Array.isArray(m.type)) {
          narrowTypeArray(m, path(), changes);
          settled = false;
        }
        for (const k of ["anyOf", "oneOf"] as const) {
          if (Array.isArray(m[k]) && (m[k] as JsonValue[]).some(isNullSchema)) {
            dropNullBranches(m, k, path(), changes);
            settled = false;
          }
        }
        if (insideItems && Array.isArray(m.anyOf)) {
          const branches = m.anyOf as JsonValue[];
          const first = asObject(branches[0]) ?? {};
          changes.push({
            kind: "narrow-items-anyof",
            path: pointer(path()),
            detail: `"anyOf" with ${branches.length} branches inside "items" kept its first branch`,
            lossy: branches.length > 1,
          });
          delete m.anyOf;
          mergeBranch(m, first);
          settled = false;
        }
      }
      for (const k of Object.keys(m)) {
        if (!GEMINI_KEYWORDS.has(k)) {
          dropped.set(k, (dropped.get(k) ?? 0) + 1);
          delete m[k];
        }
      }
    });
    for (const [k, n] of [...dropped].sort((a, b) => compareUtf8(a[0], b[0]))) {
      changes.push({
        kind: "drop-keywords",
        path: "#",
        detail: `dropped ${JSON.stringify(k)} (${n} place${
          n === 1 ? "" : "s"
        }), not in Gemini's schema subset`,
        lossy: true,
      });
    }
  }

  return { provider, toolId: tool.id, schema, changes, raw: tool };
}
