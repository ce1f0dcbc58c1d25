/**
 * Tool exposure without the provider registry (so a caller that only counts does not load the
 * model SDKs): the names a provider accepts and the schemas normalized to its dialect.
 * `exposeTools` (tools.ts) picks the dialect from the provider registry.
 *
 * @module
 */

import type { JsonObject, Tool } from "../catalog/types.ts";
import {
  type NormalizationChange,
  normalizeForProvider,
  type SchemaDialect,
} from "../catalog/normalize.ts";
import type { ToolSpec } from "./providers/types.ts";

/**
 * One change made so the provider accepts a tool: a `normalizeForProvider` schema change, or a
 * `rename` of the tool (path `#`).
 */
export interface ExposureChange {
  /** `rename`, or a schema change kind of `lib/catalog/normalize.ts`. */
  readonly kind: NormalizationChange["kind"] | "rename";
  /** JSON Pointer in the raw schema; `#` for the root and for renames. */
  readonly path: string;
  /** What was done, quoting values. */
  readonly detail: string;
  /** True when information was lost. */
  readonly lossy: boolean;
}

/** A tool as exposed to the model, with the MCP tool it routes to. */
export interface ExposedTool {
  /** Name, description and schema sent to the provider. */
  readonly spec: ToolSpec;
  /** MCP server name (config key), or the in-process proxy/code host (`mcpmeter-proxy`, ...). */
  readonly server: string;
  /** MCP tool name on that server. */
  readonly tool: string;
  /** Changes made for the provider, in order; absent when the tool was exposed as listed. */
  readonly changes?: readonly ExposureChange[];
}

/** An MCP tool as listed by a server (`tools/list` item). */
export interface ListedTool {
  /** Server (config key) that listed the tool. */
  readonly server: string;
  /** The `tools/list` item as received. */
  readonly item: JsonObject;
}

/** Longest tool name both providers accept (`^[a-zA-Z0-9_-]{1,64}$`), characters. */
export const MAX_PROVIDER_TOOL_NAME = 64;

const VALID_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** FNV-1a 32-bit of the UTF-16 code units, 8 hex digits (a short, stable name suffix). */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/**
 * A name the provider accepts for `wanted`, unused in `taken`: characters outside
 * `[a-zA-Z0-9_-]` become `_`; a name longer than 64 characters keeps its first 55 and gets `_`
 * plus the FNV-1a hash of the original; a taken name gets `_2`, `_3`, ... (shortened to fit).
 */
function providerName(wanted: string, taken: ReadonlySet<string>): string {
  let base = wanted.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (base === "") base = "tool";
  if (base.length > MAX_PROVIDER_TOOL_NAME) base = `${base.slice(0, 55)}_${fnv1a(wanted)}`;
  let name = base;
  for (let n = 2; taken.has(name); n++) {
    const suffix = `_${n}`;
    name = `${base.slice(0, MAX_PROVIDER_TOOL_NAME - suffix.length)}${suffix}`;
  }
  return name;
}

/**
 * Builds the catalog the model sees from listed tools, normalized for the provider: every
 * listed tool, in server-then-list order, under a name the provider accepts and with a schema
 * adjusted by `normalizeForProvider` (lib/catalog/normalize.ts), each change recorded on the
 * tool.
 *
 * Names: a name matching `^[a-zA-Z0-9_-]{1,64}$` (the rule of both Anthropic and OpenAI, see the
 * `name-invalid` lint rule) is kept unless an earlier server already uses it; otherwise invalid
 * characters become `_`, a name over 64 characters is cut to 55 plus `_` and an 8-hex-digit
 * FNV-1a hash of the original name, and a clash gets `_2`, `_3`, ... Names that need no change
 * are reserved first, so a renamed tool never takes a valid name away from another tool.
 * Each rename is a change of kind `rename` whose detail quotes both names.
 *
 * @param listed Tools per server, servers in offer order.
 * @param dialect Schema dialect the schemas are normalized to (`normalizeForProvider`).
 * @returns Exposed tools, in offer order; `tool` is always the name the server listed.
 *
 * @example Usage
 * ```ts
 * import { exposeForDialect } from "./expose.ts";
 * const t = exposeForDialect([{ server: "fs", item: { name: "fs.read", description: "Read" } }], "openai");
 * if (t[0].spec.name !== "fs_read" || t[0].tool !== "fs.read") throw new Error();
 * if (JSON.stringify(t[0].spec.inputSchema) !== '{"type":"object","properties":{}}') throw new Error();
 * ```
 */
export function exposeForDialect(
  listed: readonly ListedTool[],
  dialect: SchemaDialect,
): ExposedTool[] {
  const names = listed.map(({ item }) => String(item.name ?? ""));
  // Reserve valid names first (first server wins a duplicate).
  const taken = new Set<string>();
  const keep = names.map((name) => {
    if (!VALID_NAME.test(name) || taken.has(name)) return false;
    taken.add(name);
    return true;
  });
  return listed.map(({ server, item }, i) => {
    const name = names[i];
    const changes: ExposureChange[] = [];
    let exposedName = name;
    if (!keep[i]) {
      exposedName = providerName(
        VALID_NAME.test(name) ? `${server}_${name}` : name,
        taken,
      );
      taken.add(exposedName);
      changes.push({
        kind: "rename",
        path: "#",
        detail: `name ${JSON.stringify(name)} exposed as ${JSON.stringify(exposedName)}${
          VALID_NAME.test(name)
            ? " (an earlier server uses the same name)"
            : " (outside ^[a-zA-Z0-9_-]{1,64}$)"
        }`,
        lossy: false,
      });
    }
    const schema = item.inputSchema;
    const tool: Tool = {
      id: `${server}:${name}`,
      server,
      name,
      description: typeof item.description === "string" ? item.description : "",
      ...(schema !== null && typeof schema === "object" && !Array.isArray(schema)
        ? { inputSchema: schema as JsonObject }
        : {}),
    };
    const normalized = normalizeForProvider(tool, dialect);
    changes.push(...normalized.changes);
    return {
      spec: { name: exposedName, description: tool.description, inputSchema: normalized.schema },
      server,
      tool: name,
      ...(changes.length > 0 ? { changes } : {}),
    };
  });
}
