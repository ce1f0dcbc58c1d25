/**
 * Catalog lint: per-tool findings about definitions that a model provider or
 * an MCP client would reject, or that give an agent little to go on.
 *
 * @module
 */
import type { Tokenizer } from "../tokens/types.ts";
import { compareUtf8, schemaText } from "./canonical.ts";
import { degenerateClassifier, type DegenerateRuleId, type DegenerateRules } from "./degenerate.ts";
import { collectRefs, pointer, recursiveTargets, walkSchemas } from "./_schema.ts";
import type { Tool } from "./types.ts";

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
  | "ref-unresolved"
  | "ref-recursive"
  | "output-schema-not-object"
  | "name-invalid"
  | "duplicate-name"
  | "schema-too-heavy";

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

/** The rules, in report order. */
export const LINT_RULES: readonly LintRule[] = [
  {
    id: "degenerate-description",
    severity: "warning",
    affects: ["retrieval"],
    description:
      "Description empty or whitespace (warning), a stub such as /^Proxy for / or under 20 characters (info); rules from countDegenerateDescriptions.",
  },
  {
    id: "schema-without-properties",
    severity: "error",
    affects: ["openai"],
    description:
      "inputSchema has no `properties` object; OpenAI rejects object schemas without it.",
  },
  {
    id: "top-level-combinator",
    severity: "error",
    affects: ["anthropic", "openai"],
    description:
      "oneOf/anyOf/allOf at the top level of inputSchema; Anthropic and OpenAI reject the request.",
  },
  {
    id: "items-type-array",
    severity: "error",
    affects: ["gemini"],
    description:
      "A `type` array or `anyOf` inside `items`; Gemini rejects the function declaration.",
  },
  {
    id: "ref-unresolved",
    severity: "error",
    affects: ["openai", "anthropic", "gemini"],
    description:
      "A $ref that is not local (`#...`) or does not resolve inside the tool's own schema.",
  },
  {
    id: "ref-recursive",
    severity: "warning",
    affects: ["gemini"],
    description:
      "A $ref target that refers back to itself; it cannot be inlined, and providers without $ref support reject it.",
  },
  {
    id: "output-schema-not-object",
    severity: "error",
    affects: ["mcp-ts-sdk"],
    description:
      'outputSchema without `type: "object"`; the MCP TypeScript SDK then rejects the whole tools/list result.',
  },
  {
    id: "name-invalid",
    severity: "error",
    affects: ["openai", "anthropic"],
    description: "Name outside ^[a-zA-Z0-9_-]{1,64}$ (dots, slashes, spaces, non-ASCII, length).",
  },
  {
    id: "duplicate-name",
    severity: "warning",
    affects: ["clients"],
    description: "The same tool name on several servers; a client must prefix or drop one.",
  },
  {
    id: "schema-too-heavy",
    severity: "warning",
    affects: ["clients"],
    description: "Canonical inputSchema heavier than the token threshold (only with a tokenizer).",
  },
];

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
  /** Degenerate-description rules, as for `countDegenerateDescriptions`. */
  readonly degenerate?: DegenerateRules;
}

/** Result of {@linkcode lintCatalog}. */
export interface LintReport {
  /** Tools examined. */
  readonly toolCount: number;
  /** Findings sorted by tool id, then rule order, then path. */
  readonly findings: readonly LintFinding[];
  /** Number of findings per rule (every rule present, 0 when none). */
  readonly countsByRule: Readonly<Record<LintRuleId, number>>;
  /** Number of distinct tools with at least one `error` finding. */
  readonly toolsWithErrors: number;
  /** Rules that were not evaluated, with the reason. */
  readonly notEvaluated: readonly { readonly rule: LintRuleId; readonly reason: string }[];
}

/** Default `schema-too-heavy` threshold (tokens). */
export const DEFAULT_MAX_SCHEMA_TOKENS = 2000;

const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const RULE_INDEX = new Map(LINT_RULES.map((r, i) => [r.id, i]));
const rule = (id: LintRuleId) => LINT_RULES[RULE_INDEX.get(id)!];

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
 * @throws {RangeError} When `maxSchemaTokens` is not a positive number.
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
  if (!(maxTokens > 0)) {
    throw new RangeError(
      `Cannot lint as maxSchemaTokens must be positive: current value is ${maxTokens}`,
    );
  }
  const findings: LintFinding[] = [];
  const add = (
    tool: Tool,
    id: LintRuleId,
    message: string,
    path?: string,
    severity?: LintSeverity,
  ) => {
    const r = rule(id);
    findings.push({
      toolId: tool.id,
      rule: id,
      severity: severity ?? r.severity,
      affects: r.affects,
      message,
      ...(path === undefined ? {} : { path }),
    });
  };

  const serversByName = new Map<string, Set<string>>();
  for (const t of tools) {
    const set = serversByName.get(t.name) ?? new Set<string>();
    set.add(t.server);
    serversByName.set(t.name, set);
  }

  // Rules compiled once, at the first tool (an empty catalog does not check them, as before).
  let classify: ((description: string) => DegenerateRuleId | undefined) | undefined;
  for (const tool of tools) {
    classify ??= degenerateClassifier(options.degenerate);
    const degenerate = classify(tool.description);
    if (degenerate === "empty") {
      add(tool, "degenerate-description", "description is empty or whitespace");
    } else if (degenerate === "stub") {
      add(
        tool,
        "degenerate-description",
        `description ${JSON.stringify(tool.description)} is a stub`,
        undefined,
        "info",
      );
    } else if (degenerate === "short") {
      add(
        tool,
        "degenerate-description",
        `description ${JSON.stringify(tool.description)} is too short`,
        undefined,
        "info",
      );
    }

    const schema = tool.inputSchema;
    if (schema !== undefined) {
      const props = Object.hasOwn(schema, "properties") ? schema.properties : undefined;
      if (
        props === undefined || props === null || typeof props !== "object" || Array.isArray(props)
      ) {
        add(
          tool,
          "schema-without-properties",
          `inputSchema has no "properties" object (keys: ${
            JSON.stringify(Object.keys(schema).sort(compareUtf8))
          })`,
          "#",
        );
      }
      for (const k of ["anyOf", "oneOf", "allOf"]) {
        if (Object.hasOwn(schema, k)) {
          add(tool, "top-level-combinator", `inputSchema has "${k}" at the top level`, `#/${k}`);
        }
      }
      walkSchemas(schema, ({ node, path, insideItems }) => {
        if (!insideItems) return;
        if (Object.hasOwn(node, "type") && Array.isArray(node.type)) {
          add(
            tool,
            "items-type-array",
            `"type" is the array ${JSON.stringify(node.type)} inside "items"`,
            pointer(path),
          );
        }
        if (Object.hasOwn(node, "anyOf")) {
          add(tool, "items-type-array", `"anyOf" inside "items"`, pointer(path));
        }
      });
      const refs = collectRefs(schema);
      for (const r of refs) {
        if (r.target === undefined) {
          add(
            tool,
            "ref-unresolved",
            `$ref ${JSON.stringify(r.ref)} does not resolve inside the tool's schema`,
            pointer(r.at),
          );
        }
      }
      const cycles = [...recursiveTargets(refs)].sort(compareUtf8);
      if (cycles.length > 0) {
        add(
          tool,
          "ref-recursive",
          `$ref targets refer back to themselves: ${cycles.join(", ")}`,
          cycles[0],
        );
      }
      if (options.tokenizer !== undefined) {
        const tokens = options.tokenizer.count(schemaText(tool) ?? "");
        if (tokens > maxTokens) {
          add(
            tool,
            "schema-too-heavy",
            `canonical inputSchema is ${tokens} ${options.tokenizer.name} tokens (threshold ${maxTokens})`,
            "#",
          );
        }
      }
    }

    if (tool.outputSchema !== undefined && tool.outputSchema.type !== "object") {
      add(
        tool,
        "output-schema-not-object",
        `outputSchema "type" is ${JSON.stringify(tool.outputSchema.type ?? null)}, not "object"`,
        "#",
      );
    }

    if (!NAME_PATTERN.test(tool.name)) {
      add(
        tool,
        "name-invalid",
        `name ${JSON.stringify(tool.name)} ${nameProblems(tool.name).join(" and ")}`,
      );
    }

    const servers = serversByName.get(tool.name)!;
    if (servers.size > 1) {
      const others = [...servers].filter((s) => s !== tool.server).sort(compareUtf8);
      add(
        tool,
        "duplicate-name",
        `name ${JSON.stringify(tool.name)} is also on ${
          others.map((s) => JSON.stringify(s)).join(", ")
        }`,
      );
    }
  }

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
      ? [{ rule: "schema-too-heavy", reason: "no tokenizer given" }]
      : [],
  };
}
