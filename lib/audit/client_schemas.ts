/**
 * The input schema two clients send for an MCP tool, rewritten as each client rewrites it before
 * the request (the other clients send the server's schema, normalized by mcpmeter for the
 * provider's dialect):
 * - Cline ({@linkcode clineToolSchema}; cline/cline v4.1.13, sdk/packages/shared/src/tools/
 *   create.ts and sdk/packages/llms/src/providers/ai-sdk.ts): the top-level `$schema` dropped and
 *   `type: "object"` put first where the schema has no type of its own;
 * - Roo Code ({@linkcode rooToolSchema}; RooCodeInc/Roo-Code v3.52.1, src/utils/json-schema.ts,
 *   `normalizeToolSchema`): a top-level union flattened to one object, then every schema
 *   rewritten for OpenAI's strict mode (`additionalProperties: false` on objects, a type list as
 *   `anyOf`, unsupported `format`s dropped), its keys in a new order.
 *
 * @module
 */
import type { JsonObject, JsonValue } from "../catalog/types.ts";
import { isObject } from "./entries.ts";

/**
 * The schema Cline sends for a tool: without the top-level `$schema`; `type: "object"` written
 * first when the schema's `type` is not a string (Cline adds it where the schema has
 * `properties`, `required` or `additionalProperties`, or a top-level union of objects, and the
 * AI SDK layer it sends through wherever the type is not `object`). A tool without a schema gets
 * `{type: "object", properties: {}}`, as Cline's MCP tool provider gives it.
 *
 * @param schema The tool's `inputSchema` as listed, if any.
 * @returns The schema Cline sends.
 *
 * @example Usage
 * ```ts
 * import { clineToolSchema } from "./client_schemas.ts";
 * const s = clineToolSchema({ $schema: "x", properties: { q: { type: "string" } } });
 * if (JSON.stringify(s) !== '{"type":"object","properties":{"q":{"type":"string"}}}') throw new Error();
 * ```
 */
export function clineToolSchema(schema: JsonObject | undefined): JsonObject {
  if (schema === undefined) return { type: "object", properties: {} };
  const { $schema: _dropped, ...rest } = schema;
  return rest.type === "object" ? rest : { type: "object", ...rest };
}

/** The `format` values Roo Code keeps (the ones OpenAI's structured outputs accept). */
const ROO_FORMATS: ReadonlySet<string> = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

/** Keys Roo Code reads with a shape of their own, in the order it writes the ones it keeps as read. */
const ROO_KEPT_KEYS = [
  "description",
  "default",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
] as const;

/** Keys it rewrites or drops (written after the kept and the unknown keys, or not at all). */
const ROO_REWRITTEN_KEYS: ReadonlySet<string> = new Set([
  "type",
  "properties",
  "items",
  "required",
  "additionalProperties",
  "minItems",
  "maxItems",
  "uniqueItems",
  "format",
]);

const TYPES: ReadonlySet<string> = new Set([
  "string",
  "number",
  "integer",
  "boolean",
  "null",
  "object",
  "array",
]);

/** Raised inside {@linkcode rooSchema} when Roo Code's schema check would reject the value. */
class NotRooShaped extends Error {}

/** A value Roo Code's check accepts for a scalar enum item (`enum`, `const`). */
const isScalar = (v: JsonValue) => v === null || typeof v !== "object";

/**
 * One schema rewritten as Roo Code's check-and-rewrite does: every key it knows is checked (a
 * wrong shape anywhere makes it give up and keep the whole schema as written), nested schemas are
 * rewritten first, then the keys are written in its order: the kept keys, the unknown keys as
 * read, `type` (or `anyOf` for a type list), the array keys of an array, a supported `format`,
 * `properties` with the `required` names it has, and `additionalProperties: false` on an object.
 */
function rooSchema(value: JsonValue): JsonObject {
  if (!isObject(value)) throw new NotRooShaped();
  const s = value;
  const check = (ok: boolean) => {
    if (!ok) throw new NotRooShaped();
  };
  const type = s.type;
  if (type !== undefined) {
    check(
      typeof type === "string"
        ? TYPES.has(type)
        : Array.isArray(type) && type.every((t) => typeof t === "string" && TYPES.has(t)),
    );
  }
  const nested = (v: JsonValue | undefined) => v === undefined ? undefined : rooSchema(v);
  const list = (v: JsonValue | undefined) => {
    if (v === undefined) return undefined;
    check(Array.isArray(v));
    return (v as JsonValue[]).map(rooSchema);
  };
  let properties: JsonObject | undefined;
  if (s.properties !== undefined) {
    check(isObject(s.properties));
    properties = Object.fromEntries(
      Object.entries(s.properties as JsonObject).map(([k, v]) => [k, rooSchema(v)]),
    );
  }
  const items = Array.isArray(s.items) ? s.items.map(rooSchema) : nested(s.items);
  const required = s.required;
  if (required !== undefined) {
    check(Array.isArray(required) && required.every((r) => typeof r === "string"));
  }
  const extra = s.additionalProperties;
  if (extra !== undefined && typeof extra !== "boolean") rooSchema(extra);
  for (const k of ["description", "$ref", "pattern", "format"]) {
    check(s[k] === undefined || typeof s[k] === "string");
  }
  for (const k of ["minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"]) {
    check(s[k] === undefined || typeof s[k] === "number");
  }
  check(s.uniqueItems === undefined || typeof s.uniqueItems === "boolean");
  check(s.enum === undefined || (Array.isArray(s.enum) && s.enum.every(isScalar)));
  check(s.const === undefined || isScalar(s.const));
  const unions = {
    anyOf: list(s.anyOf),
    oneOf: list(s.oneOf),
    allOf: list(s.allOf),
  };

  const out: Record<string, JsonValue> = {};
  for (const k of ROO_KEPT_KEYS) {
    if (!(k in s)) continue;
    out[k] = k === "anyOf" || k === "oneOf" || k === "allOf" ? unions[k]! : s[k];
  }
  for (const [k, v] of Object.entries(s)) {
    if (!ROO_REWRITTEN_KEYS.has(k) && !(ROO_KEPT_KEYS as readonly string[]).includes(k)) out[k] = v;
  }
  const arrayKeys = (target: Record<string, JsonValue>) => {
    if (items !== undefined) target.items = items;
    for (const k of ["minItems", "maxItems", "uniqueItems"]) {
      if (s[k] !== undefined) target[k] = s[k];
    }
    return target;
  };
  if (Array.isArray(type)) {
    out.anyOf = type.map((t) => t === "array" ? arrayKeys({ type: t }) : { type: t });
  } else if (type !== undefined) {
    out.type = type;
    if (type === "array") arrayKeys(out);
  }
  if (typeof s.format === "string" && ROO_FORMATS.has(s.format)) out.format = s.format;
  const objectType = type === "object" || (Array.isArray(type) && type.includes("object"));
  if (properties !== undefined) {
    out.properties = properties;
    const names = Object.keys(properties);
    const kept = ((required ?? []) as string[]).filter((r) => names.includes(r));
    if (kept.length > 0) out.required = kept;
  } else if (objectType) {
    out.properties = {};
  }
  if (objectType || properties !== undefined) out.additionalProperties = false;
  return out;
}

/**
 * The schema Roo Code sends for a tool: a top-level `anyOf`/`oneOf`/`allOf` flattened first (the
 * first union's first object branch merged over the schema's other keys, or a bare object when
 * no branch is one), then rewritten by its strict-mode pass (see the module doc); a schema that
 * pass rejects (a key of the wrong shape anywhere) is sent flattened but otherwise as written. A
 * tool without a schema gets `{type: "object", additionalProperties: false}`.
 *
 * @param schema The tool's `inputSchema` as listed, if any.
 * @returns The schema Roo Code sends.
 *
 * @example Usage
 * ```ts
 * import { rooToolSchema } from "./client_schemas.ts";
 * const s = rooToolSchema({ type: "object", properties: { u: { type: "string", format: "uri" } } });
 * if (
 *   JSON.stringify(s) !==
 *     '{"type":"object","properties":{"u":{"type":"string"}},"additionalProperties":false}'
 * ) throw new Error(JSON.stringify(s));
 * ```
 */
export function rooToolSchema(schema: JsonObject | undefined): JsonObject {
  if (schema === undefined) return { type: "object", additionalProperties: false };
  const flat = flattenUnion(schema);
  try {
    return rooSchema(flat);
  } catch (error) {
    if (error instanceof NotRooShaped) return flat;
    throw error;
  }
}

/** Roo Code's flattening of a top-level union (see {@linkcode rooToolSchema}). */
function flattenUnion(schema: JsonObject): JsonObject {
  const { anyOf, oneOf, allOf, ...rest } = schema;
  const union = anyOf || oneOf || allOf;
  if (union === undefined || !Array.isArray(union) || union.length === 0) return schema;
  const branch = union.find((b) =>
    isObject(b) && (b.type === "object" || b.properties !== undefined)
  );
  return isObject(branch)
    ? { ...rest, ...branch }
    : { type: "object", additionalProperties: false, ...rest };
}

/**
 * The schema opencode hands its AI SDK provider for an MCP tool (anomalyco/opencode,
 * packages/opencode/src/mcp/index.ts, `convertMcpTool`): the listed schema with `type` set to
 * `"object"`, `properties` kept (an empty object when absent) and `additionalProperties: false`;
 * keys the schema has keep their place, the others are added after them. The provider's own
 * normalization follows.
 *
 * @param schema The tool's `inputSchema` as listed, if any.
 * @returns The schema opencode sends on.
 *
 * @example Usage
 * ```ts
 * import { opencodeToolSchema } from "./client_schemas.ts";
 * const s = opencodeToolSchema({ properties: { q: { type: "string" } }, type: "object" });
 * if (JSON.stringify(s) !== '{"properties":{"q":{"type":"string"}},"type":"object","additionalProperties":false}') {
 *   throw new Error(JSON.stringify(s));
 * }
 * ```
 */
export function opencodeToolSchema(schema: JsonObject | undefined): JsonObject {
  const listed = schema ?? {};
  return {
    ...listed,
    type: "object",
    properties: isObject(listed.properties) ? listed.properties : {},
    additionalProperties: false,
  };
}
