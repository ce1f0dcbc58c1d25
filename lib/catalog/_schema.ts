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

/**
 * A deep copy of a JSON value, keys in their order. Iterative (`structuredClone` gives up near
 * 4,000 levels), so any depth is copied in linear time.
 */
export function cloneJson(value: JsonValue): JsonValue {
  const copyOf = (v: JsonValue): JsonValue =>
    v === null || typeof v !== "object" ? v : Array.isArray(v) ? new Array(v.length) : {};
  const root = copyOf(value);
  if (root === value) return root; // not an object
  const stack: [JsonValue, JsonValue][] = [[value, root]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    if (Array.isArray(from)) {
      const out = to as JsonValue[];
      for (let i = 0; i < from.length; i++) {
        const child = out[i] = copyOf(from[i]);
        if (child !== from[i]) stack.push([from[i], child]);
      }
      continue;
    }
    const out = to as { [key: string]: JsonValue };
    for (const key of Object.keys(from as JsonObject)) {
      const v = (from as JsonObject)[key];
      const child = copyOf(v);
      // A member named `__proto__` stays a member (assignment would set the prototype).
      if (key === "__proto__") {
        Object.defineProperty(out, key, {
          value: child,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else out[key] = child;
      if (child !== v) stack.push([v, child]);
    }
  }
  return root;
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
  /**
   * JSON Pointer segments from the root (unescaped), built when asked: O(depth) per call, so
   * a walk that asks only where it reports stays linear in the schema's size.
   */
  readonly path: () => readonly string[];
  /** True when the node is `items` (or `prefixItems`) or lies below one. */
  readonly insideItems: boolean;
}

/** A node on the walk's stack: its parent and the one or two segments that lead to it. */
interface Frame {
  readonly node: JsonObject;
  readonly parent: Frame | undefined;
  readonly key: string | undefined;
  readonly name: string | undefined;
  readonly insideItems: boolean;
}

/** The segments from the root to `frame`, walking up the parents (no recursion). */
function framePath(frame: Frame): string[] {
  const reversed: string[] = [];
  for (let f: Frame | undefined = frame; f !== undefined; f = f.parent) {
    if (f.name !== undefined) reversed.push(f.name);
    if (f.key !== undefined) reversed.push(f.key);
  }
  return reversed.reverse();
}

/**
 * Visits every subschema (not every JSON object: a property *named* `items`
 * is a property, not the `items` keyword). Iterative, and a node holds only a link to its
 * parent, so depth is unbounded and time and memory are linear in the schema's size.
 */
export function walkSchemas(root: JsonObject, visit: (v: SchemaVisit) => void): void {
  const stack: Frame[] = [{
    node: root,
    parent: undefined,
    key: undefined,
    name: undefined,
    insideItems: false,
  }];
  while (stack.length > 0) {
    const f = stack.pop()!;
    visit({ node: f.node, path: () => framePath(f), insideItems: f.insideItems });
    if (!hasSchemaKeyword(f.node)) continue;
    for (const key of SCHEMA_MAPS) {
      const map = Object.hasOwn(f.node, key) ? asObject(f.node[key]) : undefined;
      if (map === undefined) continue;
      for (const name of Object.keys(map)) pushFrame(stack, f, map[name], key, name, false);
    }
    for (const key of SCHEMA_ONE) {
      if (Object.hasOwn(f.node, key)) {
        pushFrame(stack, f, f.node[key], key, undefined, key === "items");
      }
    }
    for (const key of SCHEMA_LISTS) {
      const list = Object.hasOwn(f.node, key) ? f.node[key] : undefined;
      if (!Array.isArray(list)) continue;
      const items = key === "items" || key === "prefixItems";
      for (let i = 0; i < list.length; i++) pushFrame(stack, f, list[i], key, String(i), items);
    }
  }
}

/** Every keyword whose value holds subschemas. */
const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  ...SCHEMA_MAPS,
  ...SCHEMA_ONE,
  ...SCHEMA_LISTS,
]);

/**
 * Whether a node has a member named like a keyword that holds subschemas (a leaf, most nodes,
 * has none, and its keywords are not looked up one by one). A JSON value's members are all
 * enumerable, so `for...in` meets every one.
 */
function hasSchemaKeyword(node: JsonObject): boolean {
  for (const k in node) if (SCHEMA_KEYWORDS.has(k)) return true;
  return false;
}

/** Pushes the frame of `value` below `parent` when it is an object. */
function pushFrame(
  stack: Frame[],
  parent: Frame,
  value: JsonValue | undefined,
  key: string,
  name: string | undefined,
  items: boolean,
): void {
  const node = asObject(value);
  if (node !== undefined) {
    stack.push({ node, parent, key, name, insideItems: parent.insideItems || items });
  }
}

/** JSON Pointer text of path segments (`~` → `~0`, `/` → `~1`). */
export function pointer(path: readonly string[]): string {
  let out = "#";
  for (const s of path) {
    out += "/" +
      (s.includes("~") || s.includes("/") ? s.replace(/~/g, "~0").replace(/\//g, "~1") : s);
  }
  return out;
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
    refs.push({ at: path(), ref: node.$ref, target: resolved?.path });
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
