/**
 * Schema-aware traversal shared by the lint and the provider normalization
 * (private to the catalog folder; not re-exported by `mod.ts`).
 *
 * @module
 */
import type { JsonObject, JsonValue } from "./types.ts";

/** Returns `value` when it is a plain JSON object, else undefined. */
export function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as JsonObject
    : undefined;
}

/** Keywords whose value is a map of name → subschema. */
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions"] as const;
/** Keywords whose value is one subschema. */
const SCHEMA_ONE = [
  "items",
  "additionalProperties",
  "additionalItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
] as const;
/** Keywords whose value is an array of subschemas. */
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems", "items"] as const;

/** One schema node met by {@linkcode walkSchemas}. */
export interface SchemaVisit {
  readonly node: JsonObject;
  /** JSON Pointer segments from the root (unescaped). */
  readonly path: readonly string[];
  /** True when the node is `items` (or `prefixItems`) or lies below one. */
  readonly insideItems: boolean;
}

/**
 * Visits every subschema (not every JSON object: a property *named* `items`
 * is a property, not the `items` keyword). Iterative, so depth is unbounded.
 */
export function walkSchemas(root: JsonObject, visit: (v: SchemaVisit) => void): void {
  const stack: SchemaVisit[] = [{ node: root, path: [], insideItems: false }];
  while (stack.length > 0) {
    const v = stack.pop()!;
    visit(v);
    const push = (value: JsonValue | undefined, path: string[], items: boolean) => {
      const node = asObject(value);
      if (node !== undefined) stack.push({ node, path, insideItems: v.insideItems || items });
    };
    for (const key of SCHEMA_MAPS) {
      const map = Object.hasOwn(v.node, key) ? asObject(v.node[key]) : undefined;
      if (map === undefined) continue;
      for (const name of Object.keys(map)) push(map[name], [...v.path, key, name], false);
    }
    for (const key of SCHEMA_ONE) {
      if (Object.hasOwn(v.node, key)) {
        push(v.node[key], [...v.path, key], key === "items");
      }
    }
    for (const key of SCHEMA_LISTS) {
      const list = Object.hasOwn(v.node, key) ? v.node[key] : undefined;
      if (!Array.isArray(list)) continue;
      list.forEach((item, i) =>
        push(item, [...v.path, key, String(i)], key === "items" || key === "prefixItems")
      );
    }
  }
}

/** JSON Pointer text of path segments (`~` → `~0`, `/` → `~1`). */
export function pointer(path: readonly string[]): string {
  return "#" + path.map((s) => "/" + s.replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/**
 * Resolves a local `$ref` (`#` or `#/...`) against the root.
 * Returns the target's path segments and node, or undefined when the ref is
 * not local or does not resolve.
 */
export function resolveRef(
  root: JsonObject,
  ref: string,
): { path: string[]; node: JsonValue } | undefined {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  let segments: string[];
  try {
    segments = ref === "#"
      ? []
      : ref.slice(2).split("/").map((s) =>
        decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~")
      );
  } catch {
    return undefined;
  }
  let node: JsonValue = root;
  for (const s of segments) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(s) || Number(s) >= node.length) return undefined;
      node = node[Number(s)];
    } else {
      const obj = asObject(node);
      if (obj === undefined || !Object.hasOwn(obj, s)) return undefined;
      node = obj[s];
    }
  }
  return { path: segments, node };
}

/** A `$ref` found in a schema, with where it sits and what it points to. */
export interface RefInfo {
  readonly at: readonly string[];
  readonly ref: string;
  /** Target path, or undefined when unresolved. */
  readonly target?: readonly string[];
}

/** Every `$ref` in the schema, resolved. */
export function collectRefs(root: JsonObject): RefInfo[] {
  const refs: RefInfo[] = [];
  walkSchemas(root, ({ node, path }) => {
    if (!Object.hasOwn(node, "$ref") || typeof node.$ref !== "string") return;
    const resolved = resolveRef(root, node.$ref);
    refs.push({ at: path, ref: node.$ref, target: resolved?.path });
  });
  return refs;
}

const startsWith = (path: readonly string[], prefix: readonly string[]) =>
  prefix.length <= path.length && prefix.every((s, i) => path[i] === s);

/**
 * Pointers of ref targets that lie on a cycle: following refs from the target
 * (any ref inside the target's subtree) leads back to it.
 */
export function recursiveTargets(refs: readonly RefInfo[]): Set<string> {
  const targets = new Map<string, readonly string[]>();
  for (const r of refs) if (r.target !== undefined) targets.set(pointer(r.target), r.target);
  const edges = new Map<string, string[]>();
  for (const [key, path] of targets) {
    edges.set(
      key,
      refs.filter((r) => r.target !== undefined && startsWith(r.at, path)).map((r) =>
        pointer(r.target!)
      ),
    );
  }
  const onCycle = new Set<string>();
  for (const start of targets.keys()) {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === start) {
        onCycle.add(start);
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(edges.get(next) ?? []));
    }
  }
  return onCycle;
}
