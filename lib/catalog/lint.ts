/**
 * Catalog lint: per-tool findings about definitions that a model provider or
 * an MCP client would reject, or that give an agent little to go on.
 *
 * @module
 */
import type { Tokenizer } from "../tokens/types.ts";
import { compareUtf8, isArrayIndexKey, schemaText } from "./canonical.ts";
import { degenerateClassifier, type DegenerateRuleId, type DegenerateRules } from "./degenerate.ts";
import {
  asObject,
  collectRefs,
  pointer,
  recursiveTargets,
  type RefInfo,
  type SchemaVisit,
  walkSchemas,
} from "./_schema.ts";
import type { Corpus, JsonObject, JsonValue, Tool } from "./types.ts";

/** How bad a finding is: `error` = the provider/client rejects it; `warning` = it degrades; `info` = worth a look. */
export type LintSeverity = "error" | "warning" | "info";

/**
 * Who a finding affects: a model provider's tool API (`openai`, `anthropic`,
 * `gemini`), the MCP TypeScript SDK client (`mcp-ts-sdk`), MCP clients that
 * merge several servers (`clients`), or tool retrieval and selection (`retrieval`).
 */
export type LintTarget = "openai" | "anthropic" | "gemini" | "mcp-ts-sdk" | "clients" | "retrieval";

/** Lint rule identifiers. */
export type LintRuleId =
  | "degenerate-description"
  | "schema-without-properties"
  | "top-level-combinator"
  | "items-type-array"
  | "type-array"
  | "null-branch"
  | "input-schema-missing"
  | "input-schema-not-object"
  | "string-not-strict-json"
  | "too-many-tools"
  | "ref-unresolved"
  | "ref-recursive"
  | "output-schema-not-object"
  | "name-invalid"
  | "duplicate-name"
  | "schema-too-heavy"
  | "description-too-heavy"
  | "integer-like-property";

/** One rule: what it checks, how severe, whom it affects. */
export interface LintRule {
  /** Rule identifier, e.g. `name-invalid`. */
  readonly id: LintRuleId;
  /** Default severity (`degenerate-description` is `warning` when empty, `info` otherwise). */
  readonly severity: LintSeverity;
  /** Providers or clients that reject or suffer from it. */
  readonly affects: readonly LintTarget[];
  /** What the rule checks, in one sentence. */
  readonly description: string;
}

/** One finding about one tool. */
export interface LintFinding {
  /** `server:name` of the tool. */
  readonly toolId: string;
  /** The rule that fired. */
  readonly rule: LintRuleId;
  /** Severity of this finding (may be lower than the rule's default). */
  readonly severity: LintSeverity;
  /** Providers or clients it affects. */
  readonly affects: readonly LintTarget[];
  /** What is wrong, quoting the offending value. */
  readonly message: string;
  /** JSON Pointer into `inputSchema`/`outputSchema` where it applies. */
  readonly path?: string;
}

/** Options of {@linkcode lintCatalog}. */
export interface LintOptions {
  /**
   * Tokenizer for `schema-too-heavy`; without one that rule is not evaluated
   * and the report lists it in `notEvaluated`.
   * @default {undefined}
   */
  readonly tokenizer?: Tokenizer;
  /**
   * Threshold of `schema-too-heavy` in tokens of the canonical schema.
   * @default {2000}
   */
  readonly maxSchemaTokens?: number;
  /**
   * Threshold of `description-too-heavy` in tokens of a tool's description (or title).
   * @default {DEFAULT_MAX_DESCRIPTION_TOKENS}
   */
  readonly maxDescriptionTokens?: number;
  /** Degenerate-description rules, as for `countDegenerateDescriptions`. */
  readonly degenerate?: DegenerateRules;
  /**
   * Whether the catalog's format carries input schemas, so that a tool without
   * one is a finding (`input-schema-missing`). Set it to false for
   * name-and-description corpora (e.g. an mcpproxy corpus without schemas).
   * @default {true}
   */
  readonly schemasExpected?: boolean;
}

/** One client limit on the number of tools, as `too-many-tools` checks it. */
export interface ToolCountCap {
  /** Who enforces it, e.g. `OpenAI function calling`. */
  readonly client: string;
  /** Most tools it accepts (or sends to the model). */
  readonly maxTools: number;
  /** Where the limit is stated (a document, or the client's own refusal message). */
  readonly source: string;
}

/**
 * Tool-count caps of major clients, smallest first: Cursor 40; OpenAI function calling 128;
 * GitHub Copilot (VS Code, JetBrains, Eclipse) 128.
 */
export const TOOL_COUNT_CAPS: readonly ToolCountCap[] = [
  {
    client: "Cursor",
    maxTools: 40,
    source:
      "docs.cursor.com, Model Context Protocol, tool quantity: only the first 40 tools are sent to the agent",
  },
  {
    client: "OpenAI function calling",
    maxTools: 128,
    source: "OpenAI API reference, `tools`: at most 128 tools per request",
  },
  {
    client: "GitHub Copilot",
    maxTools: 128,
    source:
      'VS Code, JetBrains and Eclipse refuse the request: "You may not include more than 128 tools in your request"',
  },
];

/** Result of {@linkcode lintCatalog}. */
export interface LintReport {
  /** Tools examined. */
  readonly toolCount: number;
  /** Findings sorted by tool id (the catalog-wide `too-many-tools` finding has id `*` and comes first), then rule order, then path. */
  readonly findings: readonly LintFinding[];
  /** Number of findings per rule (every rule present, 0 when none). */
  readonly countsByRule: Readonly<Record<LintRuleId, number>>;
  /** Number of distinct tools with at least one `error` finding. */
  readonly toolsWithErrors: number;
  /** Rules that were not evaluated, with the reason. */
  readonly notEvaluated: readonly { readonly rule: LintRuleId; readonly reason: string }[];
}

/**
 * Whether a corpus's format carries input schemas, for
 * {@linkcode LintOptions.schemasExpected}: always for a raw `tools/list`
 * result and an mcpmeter capture (MCP requires `inputSchema`) and for Anthropic
 * tools (its API requires `input_schema`), and for the other formats when at
 * least one tool has a schema (an mcpproxy or LiveMCPBench file of names and
 * descriptions only carries none; OpenAI and Gemini let a function without
 * arguments leave its parameters out).
 *
 * @param corpus A loaded corpus.
 * @returns True when a tool without `inputSchema` is a finding.
 *
 * @example Usage
 * ```ts
 * import { catalogCarriesSchemas } from "./lint.ts";
 * const corpus = { id: "c", version: "1", provenance: { format: "mcpproxy-corpus" as const },
 *   tools: [{ id: "s:a", server: "s", name: "a", description: "" }] };
 * if (catalogCarriesSchemas(corpus)) throw new Error("a names-only corpus carries no schemas");
 * ```
 */
export function catalogCarriesSchemas(
  corpus: Pick<Corpus, "provenance" | "tools">,
): boolean {
  const format = corpus.provenance.format;
  return format === "mcp-tools-list" || format === "mcpmeter-capture" ||
    format === "anthropic-messages" || corpus.tools.some((t) => t.inputSchema !== undefined);
}

/** Default `schema-too-heavy` threshold (tokens). */
export const DEFAULT_MAX_SCHEMA_TOKENS = 2000;

/**
 * Default `description-too-heavy` threshold (tokens): half the schema's, about 4,000 characters
 * of English. OpenAI's function calling refused descriptions over 1,024 characters
 * (`string_above_max_length`, reported through 2025); the rule is about cost, not that limit.
 */
export const DEFAULT_MAX_DESCRIPTION_TOKENS = 1000;

/** An unpaired UTF-16 surrogate: a high one not followed by a low one, or a low one alone. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first field of a tool holding an unpaired UTF-16 surrogate (a string with no UTF-8 form,
 * which strict JSON parsers refuse): `name`, `title`, `description`, or `inputSchema` with the
 * JSON Pointer of the string (key or value) within it.
 *
 * @example Usage
 * ```ts
 * import { loneSurrogateField } from "./lint.ts";
 * const at = loneSurrogateField({ name: "a", description: "ok", inputSchema: { d: "x\uD800" } });
 * if (at !== "inputSchema #/d") throw new Error(at);
 * ```
 *
 * @param tool The tool's fields as listed (with `inputSchemaCanonical`, the schema is walked
 *   only when that text holds a `\ud8XX`-`\udfXX` escape).
 * @returns `undefined` when every string is well formed, else e.g. `description` or
 *   `inputSchema #/properties/x/description`.
 */
export function loneSurrogateField(
  tool: {
    readonly name: string;
    readonly title?: string;
    readonly description?: string;
    readonly inputSchema?: JsonValue;
    readonly inputSchemaCanonical?: string;
  },
): string | undefined {
  for (const field of ["name", "title", "description"] as const) {
    const text = tool[field];
    if (text !== undefined && ANY_SURROGATE.test(text) && LONE_SURROGATE.test(text)) return field;
  }
  // The canonical text writes a lone surrogate as an escape \udXXX (JSON.stringify does): a
  // schema whose text has no such escape is walked no further.
  if (tool.inputSchema === undefined) return undefined;
  const text = tool.inputSchemaCanonical;
  if (text !== undefined && !text.includes("\\ud") && !text.includes("\\uD")) return undefined;
  const at = loneSurrogateAt(tool.inputSchema);
  return at === undefined ? undefined : `inputSchema ${at}`;
}

/** Any surrogate code unit, paired or not: a quick test before {@linkcode LONE_SURROGATE}. */
const ANY_SURROGATE = /[\uD800-\uDFFF]/;

/**
 * JSON Pointer of the first string (key or value) in `value`, in document order, with a lone
 * surrogate. Iterative (an explicit stack of parent links), so any depth is walked in linear
 * time and memory.
 */
function loneSurrogateAt(value: JsonValue): string | undefined {
  type Frame = {
    readonly value: JsonValue;
    readonly key?: string;
    readonly parent?: Frame;
    /** True when `key` is an object member's name (checked too), false for an array index. */
    readonly member?: boolean;
  };
  const at = (frame: Frame): string => {
    const reversed: string[] = [];
    for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) reversed.push(f.key);
    return pointer(reversed.reverse());
  };
  const stack: Frame[] = [{ value }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.member && LONE_SURROGATE.test(frame.key!)) return at(frame);
    const v = frame.value;
    if (typeof v === "string") {
      if (LONE_SURROGATE.test(v)) return at(frame);
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    // Children are pushed last first, so they are popped in document order.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ value: v[i], key: String(i), parent: frame });
      }
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      stack.push({ value: (v as JsonObject)[keys[i]], key: keys[i], parent: frame, member: true });
    }
  }
  return undefined;
}

/** True for `{"type":"null"}` (and `{"type":["null"]}`), with or without annotations. */
function isNullBranch(branch: JsonValue): boolean {
  const obj = asObject(branch);
  if (obj === undefined) return false;
  const type = obj.type;
  return type === "null" || (Array.isArray(type) && type.length === 1 && type[0] === "null");
}

function nameProblems(name: string): string[] {
  const problems: string[] = [];
  const length = [...name].length;
  if (length === 0) problems.push("is empty");
  if (length > 64) problems.push(`has ${length} characters (max 64)`);
  const bad = new Set<string>();
  for (const ch of name) if (!/[a-zA-Z0-9_-]/.test(ch)) bad.add(ch);
  if (bad.size > 0) {
    problems.push(`contains ${[...bad].map((c) => JSON.stringify(c)).join(", ")}`);
  }
  return problems;
}

/** What the rules read about the whole catalog, computed once by {@linkcode lintCatalog}. */
interface CatalogFacts {
  /** The tools linted, in the order given. */
  readonly tools: readonly Tool[];
  /** The options as given. */
  readonly options: LintOptions;
  /** `schema-too-heavy` threshold, checked positive. */
  readonly maxTokens: number;
  /** `description-too-heavy` threshold, checked positive. */
  readonly maxDescriptionTokens: number;
  /** The degenerate-description rules, compiled. */
  readonly classify: (description: string) => DegenerateRuleId | undefined;
  /** Servers listing each tool name. */
  readonly serversByName: ReadonlyMap<string, ReadonlySet<string>>;
  /** How often each `server\u0000name` pair is listed. */
  readonly perServer: ReadonlyMap<string, number>;
}

/** What the rules read about one tool: the schema walk and its `$ref`s, computed once per tool. */
interface ToolFacts {
  /** The tool. */
  readonly tool: Tool;
  /** Every subschema of `inputSchema`, in walk order; empty without a schema. */
  readonly nodes: readonly SchemaVisit[];
  /** The `$ref`s of `inputSchema`; empty without a schema. */
  readonly refs: readonly RefInfo[];
  /** The catalog-wide facts. */
  readonly catalog: CatalogFacts;
}

/** Records one finding of the rule being checked (severity: the rule's unless given). */
type Report = (message: string, path?: string, severity?: LintSeverity) => void;

/** A rule and its check: one registry entry. */
interface RuleEntry extends LintRule {
  /** Checks one tool (every rule but the catalog-wide `too-many-tools`). */
  readonly checkTool?: (facts: ToolFacts, report: Report) => void;
  /** Checks the whole catalog once, after the tools; its findings have tool id `*`. */
  readonly checkCatalog?: (catalog: CatalogFacts, report: Report) => void;
}

const hasTypeArray = (node: JsonObject) => Object.hasOwn(node, "type") && Array.isArray(node.type);

/** The rules in report order, each next to its check. */
const RULES: readonly RuleEntry[] = [
  {
    id: "degenerate-description",
    severity: "warning",
    affects: ["retrieval"],
    description:
      "Description empty or whitespace (warning), a stub such as /^Proxy for / or under 20 characters (info); rules from countDegenerateDescriptions.",
    checkTool({ tool, catalog }, report) {
      const degenerate = catalog.classify(tool.description);
      if (degenerate === "empty") report("description is empty or whitespace");
      if (degenerate === "stub" || degenerate === "short") {
        const what = degenerate === "stub" ? "a stub" : "too short";
        report(`description ${JSON.stringify(tool.description)} is ${what}`, undefined, "info");
      }
    },
  },
  {
    id: "schema-without-properties",
    severity: "error",
    affects: ["openai"],
    description:
      "inputSchema has no `properties` object; OpenAI rejects object schemas without it.",
    checkTool({ tool: { inputSchema: schema } }, report) {
      if (schema === undefined) return;
      const props = Object.hasOwn(schema, "properties") ? schema.properties : undefined;
      if (
        props === undefined || props === null || typeof props !== "object" || Array.isArray(props)
      ) {
        const keys = JSON.stringify(Object.keys(schema).sort(compareUtf8));
        const kind = props === undefined
          ? undefined
          : props === null
          ? "null"
          : Array.isArray(props)
          ? "an array"
          : `a ${typeof props}`;
        report(
          kind === undefined
            ? `inputSchema has no "properties" object (keys: ${keys})`
            : `inputSchema's "properties" is ${kind}, not an object`,
          kind === undefined ? "#" : "#/properties",
        );
      }
    },
  },
  {
    id: "top-level-combinator",
    severity: "error",
    affects: ["anthropic", "openai"],
    description:
      "oneOf/anyOf/allOf at the top level of inputSchema; Anthropic and OpenAI reject the request.",
    checkTool({ tool: { inputSchema: schema } }, report) {
      for (const k of ["anyOf", "oneOf", "allOf"]) {
        if (schema !== undefined && Object.hasOwn(schema, k)) {
          report(`inputSchema has "${k}" at the top level`, `#/${k}`);
        }
      }
    },
  },
  {
    id: "items-type-array",
    severity: "error",
    affects: ["gemini"],
    description:
      "A `type` array or `anyOf` inside `items`; Gemini rejects the function declaration.",
    checkTool({ nodes }, report) {
      for (const { node, path, insideItems } of nodes) {
        if (!insideItems) continue;
        if (hasTypeArray(node)) {
          report(
            `"type" is the array ${JSON.stringify(node.type)} inside "items"`,
            pointer(path()),
          );
        }
        if (Object.hasOwn(node, "anyOf")) report(`"anyOf" inside "items"`, pointer(path()));
      }
    },
  },
  {
    // Gemini's function-declaration Schema (an OpenAPI 3.0 subset) takes one type name and
    // says null with `nullable: true`; a list is refused ("Proto field is not repeating").
    id: "type-array",
    severity: "error",
    affects: ["gemini"],
    description:
      'A `type` array outside `items` (e.g. ["string","null"]); Gemini takes one type and `nullable`.',
    checkTool({ nodes }, report) {
      for (const { node, path, insideItems } of nodes) {
        if (!insideItems && hasTypeArray(node)) {
          report(`"type" is the array ${JSON.stringify(node.type)}`, pointer(path()));
        }
      }
    },
  },
  {
    // Clients that map such a union onto Gemini turn it into a type list (see type-array).
    id: "null-branch",
    severity: "error",
    affects: ["gemini"],
    description:
      'An `anyOf`/`oneOf` with a {"type":"null"} branch outside `items`; Gemini wants `nullable`.',
    checkTool({ nodes }, report) {
      for (const { node, path, insideItems } of nodes) {
        if (insideItems) continue;
        for (const k of ["anyOf", "oneOf"]) {
          const branches = Object.hasOwn(node, k) ? node[k] : undefined;
          if (Array.isArray(branches) && branches.some(isNullBranch)) {
            report(`"${k}" has a {"type":"null"} branch`, pointer(path()));
          }
        }
      }
    },
  },
  {
    id: "input-schema-missing",
    severity: "error",
    affects: ["mcp-ts-sdk", "openai"],
    description:
      "No inputSchema in a catalog whose format carries schemas; MCP requires one, and the TypeScript SDK's strict parser rejects the tools/list result.",
    checkTool({ tool, catalog }, report) {
      if (tool.inputSchema === undefined && (catalog.options.schemasExpected ?? true)) {
        report("the tool has no inputSchema");
      }
    },
  },
  {
    id: "input-schema-not-object",
    severity: "error",
    affects: ["mcp-ts-sdk", "openai"],
    description:
      'inputSchema whose `type` is not "object"; the SDK\'s strict parser and OpenAI reject it.',
    checkTool({ tool: { inputSchema: schema } }, report) {
      if (schema !== undefined && Object.hasOwn(schema, "type") && schema.type !== "object") {
        report(`inputSchema "type" is ${JSON.stringify(schema.type)}, not "object"`, "#");
      }
    },
  },
  {
    id: "string-not-strict-json",
    severity: "error",
    affects: ["openai", "anthropic", "gemini"],
    description:
      "A name, title, description or schema string holding an unpaired UTF-16 surrogate, which has no UTF-8 form: strict JSON parsers reject the request body.",
    checkTool({ tool }, report) {
      const strings: [string, JsonValue | undefined][] = [
        ["name", tool.name],
        ["title", tool.title],
        ["description", tool.description],
        ["inputSchema", tool.inputSchema],
      ];
      for (const [field, value] of strings) {
        const at = value === undefined ? undefined : loneSurrogateAt(value);
        if (at !== undefined) {
          report(
            `${field} holds an unpaired UTF-16 surrogate`,
            field === "inputSchema" ? at : undefined,
          );
          return;
        }
      }
    },
  },
  {
    id: "too-many-tools",
    severity: "warning",
    affects: ["openai", "clients"],
    description:
      "The whole catalog has more tools than a client accepts (OpenAI and GitHub Copilot: 128; Cursor: 40); reported once, on tool id `*`.",
    checkCatalog({ tools }, report) {
      const caps = TOOL_COUNT_CAPS.filter((c) => tools.length > c.maxTools);
      if (caps.length === 0) return;
      const over = caps.map((c) => `${c.client} accepts (${c.maxTools})`).join(", ");
      report(`the catalog has ${tools.length} tools, more than ${over}`);
    },
  },
  {
    id: "ref-unresolved",
    severity: "error",
    affects: ["openai", "anthropic", "gemini"],
    description:
      "A $ref that is not local (`#...`) or does not resolve inside the tool's own schema.",
    checkTool({ refs }, report) {
      for (const r of refs) {
        if (r.target === undefined) {
          report(
            `$ref ${JSON.stringify(r.ref)} does not resolve inside the tool's schema`,
            pointer(r.at),
          );
        }
      }
    },
  },
  {
    id: "ref-recursive",
    severity: "warning",
    affects: ["gemini"],
    description:
      "A $ref target that refers back to itself; it cannot be inlined, and providers without $ref support reject it.",
    checkTool({ refs }, report) {
      const cycles = [...recursiveTargets(refs)].sort(compareUtf8);
      if (cycles.length > 0) {
        report(`$ref targets refer back to themselves: ${cycles.join(", ")}`, cycles[0]);
      }
    },
  },
  {
    id: "output-schema-not-object",
    severity: "error",
    affects: ["mcp-ts-sdk"],
    description:
      'outputSchema without `type: "object"`; the MCP TypeScript SDK then rejects the whole tools/list result.',
    checkTool({ tool: { outputSchema } }, report) {
      if (outputSchema !== undefined && outputSchema.type !== "object") {
        const type = JSON.stringify(outputSchema.type ?? null);
        report(`outputSchema "type" is ${type}, not "object"`, "#");
      }
    },
  },
  {
    id: "name-invalid",
    severity: "error",
    affects: ["openai", "anthropic"],
    description: "Name outside ^[a-zA-Z0-9_-]{1,64}$ (dots, slashes, spaces, non-ASCII, length).",
    checkTool({ tool: { name } }, report) {
      if (!NAME_PATTERN.test(name)) {
        report(`name ${JSON.stringify(name)} ${nameProblems(name).join(" and ")}`);
      }
    },
  },
  {
    id: "duplicate-name",
    severity: "warning",
    affects: ["clients"],
    description:
      "The same tool name on several servers (a client must prefix or drop one), or twice on one server (a client keeps one).",
    checkTool({ tool, catalog }, report) {
      const name = JSON.stringify(tool.name);
      const repeats = catalog.perServer.get(`${tool.server}\u0000${tool.name}`)!;
      if (repeats > 1) {
        report(
          `name ${name} is listed ${repeats} times by server ${
            JSON.stringify(tool.server)
          }; a client keeps one`,
        );
      }
      const servers = catalog.serversByName.get(tool.name)!;
      if (servers.size > 1) {
        const others = [...servers].filter((s) => s !== tool.server).sort(compareUtf8);
        report(`name ${name} is also on ${others.map((s) => JSON.stringify(s)).join(", ")}`);
      }
    },
  },
  {
    id: "schema-too-heavy",
    severity: "warning",
    affects: ["clients"],
    description: "Canonical inputSchema heavier than the token threshold (only with a tokenizer).",
    checkTool({ tool, catalog: { options: { tokenizer }, maxTokens } }, report) {
      if (tool.inputSchema === undefined || tokenizer === undefined) return;
      const tokens = tokenizer.count(schemaText(tool) ?? "");
      if (tokens > maxTokens) {
        report(
          `canonical inputSchema is ${tokens} ${tokenizer.name} tokens (threshold ${maxTokens})`,
          "#",
        );
      }
    },
  },
  {
    id: "description-too-heavy",
    severity: "warning",
    affects: ["clients", "retrieval"],
    description:
      "Description (or title) heavier than the token threshold, paid in context on every request that lists the tool (only with a tokenizer).",
    checkTool({ tool, catalog: { options: { tokenizer }, maxDescriptionTokens } }, report) {
      if (tokenizer === undefined) return;
      for (const field of ["description", "title"] as const) {
        const text = tool[field];
        // A token is at least one UTF-8 byte and a UTF-16 unit at most three: text of n units is
        // at most 3n tokens, so shorter text is not counted.
        if (typeof text !== "string" || 3 * text.length <= maxDescriptionTokens) continue;
        const tokens = tokenizer.count(text);
        if (tokens > maxDescriptionTokens) {
          report(
            `${field} is ${tokens} ${tokenizer.name} tokens (${text.length} characters; threshold ${maxDescriptionTokens})`,
          );
        }
      }
    },
  },
  {
    // A JS object lists array-index keys first, in ascending numeric order: the MCP TypeScript
    // SDK's parsed tools/list (and anything that re-serializes it) loses the schema's order.
    id: "integer-like-property",
    severity: "info",
    affects: ["mcp-ts-sdk", "clients"],
    description:
      'A property named like an array index ("2", "10"): JavaScript clients list such names first, in ascending numeric order, whatever order the schema gives them.',
    checkTool({ nodes }, report) {
      for (const { node, path } of nodes) {
        const props = asObject(Object.hasOwn(node, "properties") ? node.properties : undefined);
        if (props === undefined) continue;
        for (const name of Object.keys(props)) {
          if (!isArrayIndexKey(name)) continue;
          report(
            `property ${JSON.stringify(name)} is named like an array index: JavaScript clients ` +
              `list it before the other properties, in ascending numeric order`,
            pointer([...path(), "properties", name]),
          );
        }
      }
    },
  },
];

/** The rules, in report order (each one's check is beside it in this module). */
export const LINT_RULES: readonly LintRule[] = RULES.map((r) => ({
  id: r.id,
  severity: r.severity,
  affects: r.affects,
  description: r.description,
}));

const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const RULE_INDEX = new Map(LINT_RULES.map((r, i) => [r.id, i]));

/**
 * Lints a catalog: per-tool findings, each with a severity and the providers
 * or clients it affects (see {@linkcode LINT_RULES}).
 *
 * Pure: no I/O. `$ref`s are resolved only inside the tool's own schema
 * (`#`, `#/...` JSON Pointers), as all refs seen in real servers are.
 *
 * @param tools The tools (a corpus's `tools`).
 * @param options Tokenizer and thresholds.
 * @returns Findings and counts.
 * @throws {RangeError} When `maxSchemaTokens` or `maxDescriptionTokens` is not a positive number.
 *
 * @example Usage
 * ```ts
 * import { lintCatalog } from "./lint.ts";
 * const report = lintCatalog([{ id: "s:a.b", server: "s", name: "a.b",
 *   description: "Reads one record from the store.", inputSchema: { type: "object" } }]);
 * const rules = report.findings.map((f) => f.rule).join();
 * if (rules !== "schema-without-properties,name-invalid") throw new Error(rules);
 * ```
 */
export function lintCatalog(tools: readonly Tool[], options: LintOptions = {}): LintReport {
  const maxTokens = options.maxSchemaTokens ?? DEFAULT_MAX_SCHEMA_TOKENS;
  const maxDescriptionTokens = options.maxDescriptionTokens ?? DEFAULT_MAX_DESCRIPTION_TOKENS;
  for (
    const [name, value] of [["maxSchemaTokens", maxTokens], [
      "maxDescriptionTokens",
      maxDescriptionTokens,
    ]] as const
  ) {
    if (!(value > 0)) {
      throw new RangeError(`Cannot lint as ${name} must be positive: current value is ${value}`);
    }
  }
  const serversByName = new Map<string, Set<string>>();
  const perServer = new Map<string, number>();
  for (const t of tools) {
    const set = serversByName.get(t.name) ?? new Set<string>();
    set.add(t.server);
    serversByName.set(t.name, set);
    const key = `${t.server}\u0000${t.name}`;
    perServer.set(key, (perServer.get(key) ?? 0) + 1);
  }
  // The degenerate rules are compiled only when there is a tool (an empty catalog does not
  // check them).
  let classify: CatalogFacts["classify"] | undefined;
  const catalog: CatalogFacts = {
    tools,
    options,
    maxTokens,
    maxDescriptionTokens,
    classify: (description) => (classify ??= degenerateClassifier(options.degenerate))(description),
    serversByName,
    perServer,
  };

  const findings: LintFinding[] = [];
  const reporter = (toolId: string, r: RuleEntry): Report => (message, path, severity) => {
    findings.push({
      toolId,
      rule: r.id,
      severity: severity ?? r.severity,
      affects: r.affects,
      message,
      ...(path === undefined ? {} : { path }),
    });
  };
  for (const tool of tools) {
    const nodes: SchemaVisit[] = [];
    if (tool.inputSchema !== undefined) walkSchemas(tool.inputSchema, (v) => nodes.push(v));
    const refs = tool.inputSchema === undefined ? [] : collectRefs(tool.inputSchema);
    const facts: ToolFacts = { tool, nodes, refs, catalog };
    for (const r of RULES) r.checkTool?.(facts, reporter(tool.id, r));
  }
  for (const r of RULES) r.checkCatalog?.(catalog, reporter("*", r));

  findings.sort((a, b) =>
    (a.toolId < b.toolId ? -1 : a.toolId > b.toolId ? 1 : 0) ||
    RULE_INDEX.get(a.rule)! - RULE_INDEX.get(b.rule)! ||
    compareUtf8(a.path ?? "", b.path ?? "")
  );
  const countsByRule = Object.fromEntries(LINT_RULES.map((r) => [r.id, 0])) as Record<
    LintRuleId,
    number
  >;
  for (const f of findings) countsByRule[f.rule]++;
  return {
    toolCount: tools.length,
    findings,
    countsByRule,
    toolsWithErrors:
      new Set(findings.filter((f) => f.severity === "error").map((f) => f.toolId)).size,
    notEvaluated: options.tokenizer === undefined
      ? [
        { rule: "schema-too-heavy", reason: "no tokenizer given" },
        { rule: "description-too-heavy", reason: "no tokenizer given" },
      ]
      : [],
  };
}
