/**
 * Billed tokens without a key: per provider, a linear estimate with a low/high interval from
 * features of the exact tools sent, and the calibration that sets its coefficients.
 *
 * Features (all counted with `o200k_base`, the one public encoding of a current frontier
 * model), per tool:
 * - `anthropic`: the tools as Claude's tool-use system prompt holds them, one
 *   `<function>{...}</function>` line per tool inside `<functions>` (the layout seen in
 *   published Claude system prompts: JSON of `{description, name, parameters}` with keys sorted
 *   and `", "`/`": "` separators), its tokens split into `prose` (inside string values that hold
 *   words), `nonAscii` (tokens holding non-ASCII bytes) and `structure` (everything else: keys,
 *   punctuation, identifiers, enum values);
 * - `openai`: the OpenAI Cookbook's count of function definitions ("How to count tokens with
 *   tiktoken", `num_tokens_for_tools`: 7 per function, `name:description`, 3 per properties
 *   block, 3 per property plus `name:type:description`, enum items, 12 per request) over the
 *   top-level properties (`cookbookTop`), the same rule applied to every other properties
 *   block the schema declares (`cookbookNested`, which the cookbook leaves out: nested, in
 *   combinator branches, in `$defs`), and the tool's JSON as sent (`json`);
 * - `gemini`: the function declaration's JSON as sent (`json`).
 *
 * An estimate is `intercept + Σ coefficient × feature` at each of low, mid and high; the
 * intercept is the fixed tool-use overhead a request pays once (so it is in the catalog's
 * figure, not a server's). {@linkcode DEFAULT_CALIBRATION} sets the coefficients from cited
 * sources; `deno task calibrate-tokens` fits them on a provider's own counts.
 *
 * @module
 */
import { sharedDefaultTokenizer } from "../tokens/default_tokenizer.ts";
import { RegionTally } from "../tokens/spans.ts";
import { sharedCounts } from "../tokens/shared_counts.ts";
import { jsonText } from "../core/json.ts";
import type { SentFormat, SentTool } from "../catalog/sent.ts";
import { sentTools } from "../catalog/sent.ts";
import type { JsonObject, JsonValue } from "../catalog/types.ts";

/** Providers whose bill is estimated or counted. */
export type BillingProvider = "anthropic" | "openai" | "gemini";

/** Every {@linkcode BillingProvider}, in report order. */
export const BILLING_PROVIDERS: readonly BillingProvider[] = ["anthropic", "openai", "gemini"];

/**
 * The model a provider's bill is estimated for when the user names none: what a user of that
 * provider pays today. Claude's current Sonnet (platform.claude.com's models overview names Claude
 * Sonnet 5.5), whose tokenizer is the one of Opus 4.7 and later; OpenAI's and Gemini's calibration
 * has one entry each (`null`: that entry).
 */
export const DEFAULT_ESTIMATE_MODEL: Readonly<Record<BillingProvider, string | null>> = {
  anthropic: "claude-sonnet-5-5",
  openai: null,
  gemini: null,
};

/** The request format each provider's bill is estimated and counted in. */
export const BILLING_FORMAT: Readonly<Record<BillingProvider, SentFormat>> = {
  anthropic: "anthropic-messages",
  openai: "openai-responses",
  gemini: "gemini",
};

/** Feature values of one tool (or of a catalog, summed). */
export type Features = Readonly<Record<string, number>>;

/** A low/mid/high triple. */
export interface Interval {
  /** Lower end. */
  readonly low: number;
  /** Central value. */
  readonly mid: number;
  /** Upper end. */
  readonly high: number;
}

/** One estimator: a provider and the models it applies to, with its coefficients. */
export interface CalibrationEntry {
  /** Provider. */
  readonly provider: BillingProvider;
  /** Regular expression the model name must match; `null` matches any (and no model). */
  readonly models: string | null;
  /** What the entry covers, for the report. */
  readonly label: string;
  /** Fixed tokens per request that carries tools (the tool-use overhead). */
  readonly intercept: Interval;
  /** Coefficient per feature name. */
  readonly coefficients: Readonly<Record<string, Interval>>;
  /** Ids of {@linkcode Calibration.sources} this entry rests on. */
  readonly sources: readonly string[];
}

/** A cited source of a calibration. */
export interface CalibrationSource {
  /** Short id. */
  readonly id: string;
  /** What it is. */
  readonly title: string;
  /** Where to read it. */
  readonly url: string;
  /** What the calibration takes from it. */
  readonly usedFor: string;
}

/** A calibration file (`deno task calibrate-tokens` writes one; the default ships in code). */
export interface Calibration {
  /** Always `mcpmeter-token-calibration`. */
  readonly format: "mcpmeter-token-calibration";
  /** Always 1. */
  readonly formatVersion: 1;
  /** Name shown with every estimate. */
  readonly name: string;
  /** How the coefficients were obtained, in a few sentences. */
  readonly method: string;
  /** Sources cited by the entries. */
  readonly sources: readonly CalibrationSource[];
  /** Entries; the first whose provider and `models` match is used. */
  readonly entries: readonly CalibrationEntry[];
}

const iv = (low: number, mid: number, high: number): Interval => ({ low, mid, high });
const times = (a: Interval, b: Interval): Interval =>
  iv(a.low * b.low, a.mid * b.mid, a.high * b.high);

// Claude tokens per o200k token, by class (tokenizer of Claude 3 to Opus 4.6).
const CLAUDE_PROSE = iv(1.1, 1.17, 1.25);
const CLAUDE_STRUCTURE = iv(1.25, 1.4, 1.6);
const CLAUDE_NON_ASCII = iv(1.0, 1.5, 2.5);
// Opus 4.7's tokenizer against the one before, by class.
const OPUS47_PROSE = iv(1.2, 1.33, 1.46);
const OPUS47_STRUCTURE = iv(1.13, 1.25, 1.36);
const OPUS47_NON_ASCII = iv(1.0, 1.03, 1.07);

/**
 * The calibration that ships: no fit, coefficients read from the cited sources. Its
 * intervals are wide on purpose: they say how wrong an estimate without a key may be.
 */
export const DEFAULT_CALIBRATION: Calibration = {
  format: "mcpmeter-token-calibration",
  formatVersion: 1,
  name: "default (cited sources, no fit)",
  method: "Per provider, a linear estimate over features of the exact tools sent, counted with " +
    "o200k_base. Anthropic: the fixed tool-use system prompt the docs give (346 tokens with " +
    "tool_choice auto), plus the tools as Claude's system prompt lays them out, their o200k " +
    "tokens split into prose, structure and non-ASCII, each times a Claude-to-o200k ratio " +
    "interval from published tokenizer comparisons (English prose +10-25%, code-like " +
    "structure +25-60%, non-ASCII text 1-2.5x); Opus 4.7 and later multiply by the new " +
    "tokenizer's measured inflation per class. OpenAI: the OpenAI Cookbook's count of function " +
    "definitions (low: top-level properties as published; mid: every properties block the " +
    "schema declares counted the same way, $defs included; high: the tool's JSON as sent). Gemini: the declarations' JSON as sent, times " +
    "0.85-1.3 (a 262k-entry SentencePiece vocabulary, per the Gemma 3 report shared with " +
    "Gemini, against o200k's 200k BPE; no published comparison on JSON). Nothing is fitted on " +
    "provider counts of real catalogs.",
  sources: [
    {
      id: "anthropic-tool-use",
      title: "Anthropic docs, Tool use: pricing (tool use system prompt token count)",
      url: "https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview#pricing",
      usedFor: "the fixed overhead: 346 tokens (tool_choice auto/none) for Claude 4 models",
    },
    {
      id: "gupta-2025",
      title: "L. Gupta, Hidden costs in AI deployment: why Claude models may be 20-30% more " +
        "expensive than GPT (VentureBeat, May 2025)",
      url: "https://venturebeat.com/ai/hidden-costs-in-ai-deployment-why-claude-models-may-be-" +
        "20-30-more-expensive-than-gpt-in-enterprise-settings/",
      usedFor: "Claude 3.5 Sonnet vs GPT-4o (o200k) tokens: English +16%, math +21%, Python +30%",
    },
    {
      id: "anthropic-skill-tokens",
      title: "Anthropic's Claude API skill, token counting reference (tiktoken undercounts " +
        "Claude by ~15-20% on typical text, much more on code or non-English input)",
      url: "https://github.com/Piebald-AI/claude-code-system-prompts",
      usedFor: "prose interval; the direction and size of code and non-English inflation",
    },
    {
      id: "opus-4-7-tokenizer",
      title: "Anthropic, Opus 4.7 migration guide (new tokenizer, 1.0-1.35x tokens) and " +
        "independent count_tokens measurements (claudecodecamp.com; sol.ava.dev, Apr 2026)",
      url:
        "https://www.claudecodecamp.com/p/i-measured-claude-4-7-s-new-tokenizer-here-s-what-it-costs-you",
      usedFor: "Opus 4.7+ inflation: prose 1.20-1.46x, code 1.13-1.36x, CJK 1.00-1.07x",
    },
    {
      id: "claude-tool-prompt-layout",
      title: "Published Claude system prompts: tools listed as <functions><function>{JSON}" +
        "</function></functions>",
      url: "https://github.com/asgeirtj/system_prompts_leaks",
      usedFor: "the layout the anthropic features are counted on",
    },
    {
      id: "openai-cookbook-tools",
      title: "OpenAI Cookbook, How to count tokens with tiktoken (section: chat completions " +
        "with tool calls, num_tokens_for_tools)",
      url:
        "https://github.com/openai/openai-cookbook/blob/main/examples/How_to_count_tokens_with_tiktoken.ipynb",
      usedFor: "OpenAI function-definition constants (7, 3, 3, -3, 3, 12) for gpt-4o-era models",
    },
    {
      id: "gemini-tokens",
      title: "Google, Gemini API docs: Understand and count tokens (about 4 characters per " +
        "token); Gemma 3 technical report (same tokenizer as Gemini 2.0, 262k entries)",
      url: "https://ai.google.dev/gemini-api/docs/tokens",
      usedFor: "the Gemini interval (no published JSON comparison: the widest of the three)",
    },
  ],
  entries: [
    {
      provider: "anthropic",
      models: "^claude-opus-4-(?:[7-9]|\\d\\d)|^claude-(?:opus|sonnet|haiku)-(?:[5-9])",
      label: "Claude, Opus 4.7 tokenizer and later",
      intercept: iv(346, 346 * 1.2, 346 * 1.35),
      coefficients: {
        prose: times(CLAUDE_PROSE, OPUS47_PROSE),
        structure: times(CLAUDE_STRUCTURE, OPUS47_STRUCTURE),
        nonAscii: times(CLAUDE_NON_ASCII, OPUS47_NON_ASCII),
      },
      sources: [
        "anthropic-tool-use",
        "gupta-2025",
        "anthropic-skill-tokens",
        "opus-4-7-tokenizer",
        "claude-tool-prompt-layout",
      ],
    },
    {
      provider: "anthropic",
      models: null,
      label: "Claude, tokenizer of Claude 3 to Opus 4.6",
      intercept: iv(346, 346, 346),
      coefficients: {
        prose: CLAUDE_PROSE,
        structure: CLAUDE_STRUCTURE,
        nonAscii: CLAUDE_NON_ASCII,
      },
      sources: [
        "anthropic-tool-use",
        "gupta-2025",
        "anthropic-skill-tokens",
        "claude-tool-prompt-layout",
      ],
    },
    {
      provider: "openai",
      models: null,
      label: "OpenAI, o200k models (gpt-4o and later)",
      intercept: iv(12, 12, 12),
      coefficients: {
        cookbookTop: iv(1, 1, 0),
        cookbookNested: iv(0, 1, 0),
        json: iv(0, 0, 1),
      },
      sources: ["openai-cookbook-tools"],
    },
    {
      provider: "gemini",
      models: null,
      label: "Gemini 2 and later",
      intercept: iv(0, 0, 0),
      coefficients: { json: iv(0.85, 1, 1.3) },
      sources: ["gemini-tokens"],
    },
  ],
};

/**
 * The entry of a calibration that applies to a provider and model.
 *
 * @param calibration The calibration.
 * @param provider Provider.
 * @param model Model name, or `null` (then only an entry with `models: null` applies).
 * @returns The entry, or `undefined` when none applies.
 */
export function calibrationEntry(
  calibration: Calibration,
  provider: BillingProvider,
  model: string | null,
): CalibrationEntry | undefined {
  return calibration.entries.find((e) =>
    e.provider === provider &&
    (e.models === null || (model !== null && new RegExp(e.models).test(model)))
  );
}

/**
 * Python's `json.dumps(v, sort_keys=True, ensure_ascii=False)`, written to `tally`; each string
 * value that holds words is its own region (`prose`, labelled `tool + 1`, then `tool` again).
 */
function pyJson(root: JsonValue, tally: RegionTally, tool: number): void {
  // An explicit stack of pending texts and values, not recursion: any nesting depth.
  const todo: ({ text: string } | { value: JsonValue })[] = [{ value: root }];
  while (todo.length > 0) {
    const next = todo.pop()!;
    if ("text" in next) {
      tally.put(next.text);
      continue;
    }
    const v = next.value;
    if (v === null || typeof v !== "object") {
      const s = JSON.stringify(v);
      if (typeof v === "string" && /\s/.test(v) && /\p{L}/u.test(v)) {
        tally.region(tool + 1);
        tally.put(s, true);
        tally.region(tool);
      } else tally.put(s);
      continue;
    }
    if (Array.isArray(v)) {
      tally.put("[");
      todo.push({ text: "]" });
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push({ value: v[i] });
        if (i > 0) todo.push({ text: ", " });
      }
      continue;
    }
    const keys = Object.keys(v).sort();
    tally.put("{");
    todo.push({ text: "}" });
    for (let i = keys.length - 1; i >= 0; i--) {
      todo.push({ value: (v as JsonObject)[keys[i]] });
      todo.push({ text: `${JSON.stringify(keys[i])}: ` });
      if (i > 0) todo.push({ text: ", " });
    }
  }
}

/**
 * Anthropic features per tool: the o200k tokens of each tool's `<function>` line, by class.
 *
 * @param tools Tools shaped for Anthropic.
 * @returns Per tool `{prose, structure, nonAscii}`, and the `<functions>` wrapper's tokens.
 */
export function anthropicFeatures(
  tools: readonly SentTool[],
): { perTool: Features[]; wrapper: Features } {
  const perTool: Record<string, number>[] = tools.map(() => ({
    prose: 0,
    structure: 0,
    nonAscii: 0,
  }));
  const wrapper: Record<string, number> = { prose: 0, structure: 0, nonAscii: 0 };
  // Regions: each tool's line and, inside it, each prose string, labelled 2 × tool (+ 1 for
  // prose; -1: the wrapper). Tokens holding non-ASCII bytes are counted apart. The text is
  // counted line by line as it is written (RegionTally), never held whole.
  const tally = new RegionTally(
    "o200k_base",
    (label, tokens, wide) => {
      const target = label < 0 ? wrapper : perTool[label >> 1];
      target.nonAscii += wide;
      target[label >= 0 && (label & 1) === 1 ? "prose" : "structure"] += tokens - wide;
    },
    -1,
    { nonAscii: true },
  );
  tally.put("<functions>\n");
  tools.forEach((t, i) => {
    tally.mayCut();
    tally.region(2 * i);
    tally.put("<function>");
    pyJson({ description: t.description, name: t.name, parameters: t.inputSchema }, tally, 2 * i);
    tally.put("</function>\n");
    tally.region(-1);
  });
  tally.mayCut();
  tally.put("</functions>");
  tally.finish();
  return { perTool, wrapper };
}

const count = (text: string) => sharedDefaultTokenizer("o200k_base").count(text);

/**
 * Tokens of `JSON.stringify(value)`, counted from its parts without building it: the values of
 * the members of `item` (`value` itself, or an element of it) are parts counted once wherever
 * they recur (exact: `sharedCounts` `countJoin`).
 */
function countJson(value: JsonValue, item: JsonObject): number {
  const parts: string[] = [];
  const known: boolean[] = [];
  let open = ""; // text since the last member value
  const write = (v: JsonValue) => {
    if (v === item) {
      let sep = "{";
      for (const key of Object.keys(item)) {
        const s = jsonText(item[key]) as string | undefined;
        if (s === undefined) continue; // left out, as JSON.stringify does
        parts.push(`${open}${sep}${JSON.stringify(key)}:`, s);
        known.push(false, true);
        open = "";
        sep = ",";
      }
      open += sep === "{" ? "{}" : "}";
    } else if (Array.isArray(v)) {
      open += "[";
      v.forEach((x, i) => {
        if (i > 0) open += ",";
        write(x);
      });
      open += "]";
    } else open += jsonText(v) ?? "null";
  };
  write(value);
  parts.push(open);
  known.push(false);
  return sharedCounts(sharedDefaultTokenizer("o200k_base")).countJoin(parts, known);
}

/** Members of a schema node that hold schemas whose `properties` the arguments may carry. */
const SUBSCHEMA_KEYS = ["items", "prefixItems", "anyOf", "oneOf", "allOf", "additionalProperties"];
/** Members that hold named schemas (`$ref` targets), each declared once. */
const DEFINITION_KEYS = ["$defs", "definitions"];

const asSchema = (v: JsonValue | undefined): JsonObject | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? v as JsonObject : undefined;

/**
 * The Cookbook's count over the root's `properties` (`top`) and, by the same rule, over every
 * other `properties` block the schema declares (`nested`): a property's own, and those under
 * `items`, `prefixItems`, combinator branches, `additionalProperties` and `$defs`/`definitions`,
 * each block once where it is written (a `$ref` is not followed, so a definition counts once
 * however often it is used). A work list, not recursion: any nesting depth.
 */
function propertyCount(schema: JsonObject): { top: number; nested: number } {
  let top = 0;
  let nested = 0;
  const todo: { node: JsonObject; nested: boolean }[] = [{ node: schema, nested: false }];
  const push = (v: JsonValue | undefined) => {
    if (Array.isArray(v)) { for (const x of v) push(x); }
    else {
      const node = asSchema(v);
      if (node !== undefined) todo.push({ node, nested: true });
    }
  };
  while (todo.length > 0) {
    const { node, nested: inner } = todo.pop()!;
    for (const key of SUBSCHEMA_KEYS) push(node[key]);
    for (const key of DEFINITION_KEYS) {
      const defs = asSchema(node[key]);
      if (defs !== undefined) { for (const def of Object.values(defs)) push(def); }
    }
    const level = asSchema(node.properties);
    if (level === undefined) continue;
    const entries = Object.entries(level);
    if (entries.length === 0) continue;
    let sum = 3;
    for (const [key, raw] of entries) {
      const p = asSchema(raw) ?? {};
      sum += 3;
      const type = Array.isArray(p.type)
        ? p.type.join("|")
        : typeof p.type === "string"
        ? p.type
        : "";
      const desc = typeof p.description === "string" ? p.description.replace(/\.$/, "") : "";
      if (Array.isArray(p.enum)) {
        sum += -3;
        for (const item of p.enum) {
          sum += 3 + count(typeof item === "string" ? item : jsonText(item));
        }
      }
      sum += count(`${key}:${type}:${desc}`);
      push(p);
    }
    if (inner) nested += sum;
    else top += sum;
  }
  return { top, nested };
}

/**
 * OpenAI features per tool: the Cookbook's count over top-level properties, the same rule over
 * nested properties, and the o200k tokens of the tool's Responses JSON as sent.
 *
 * @param tools Tools shaped for OpenAI.
 * @returns Per tool `{cookbookTop, cookbookNested, json}`.
 */
export function openAiFeatures(tools: readonly SentTool[]): Features[] {
  return tools.map((t) => {
    const desc = t.description.replace(/\.$/, "");
    const props = propertyCount(t.inputSchema);
    const sent = sentTools([t], "openai-responses");
    return {
      cookbookTop: 7 + count(`${t.name}:${desc}`) + props.top,
      cookbookNested: props.nested,
      json: countJson(sent, sent[0]),
    };
  });
}

/**
 * Gemini features per tool: the o200k tokens of its function declaration as sent.
 *
 * @param tools Tools shaped for Gemini.
 * @returns Per tool `{json}`.
 */
export function geminiFeatures(tools: readonly SentTool[]): Features[] {
  return tools.map((t) => {
    const decl = (sentTools([t], "gemini")[0].functionDeclarations as JsonObject[])[0];
    return { json: countJson(decl, decl) };
  });
}

/**
 * Features of each tool for a provider's estimator.
 *
 * @param provider Provider.
 * @param tools Tools shaped for the provider's billing format ({@linkcode BILLING_FORMAT}).
 * @returns Per tool features, and those of the catalog's wrapper (counted once).
 */
export function providerFeatures(
  provider: BillingProvider,
  tools: readonly SentTool[],
): { perTool: Features[]; wrapper: Features } {
  if (provider === "anthropic") return anthropicFeatures(tools);
  return {
    perTool: provider === "openai" ? openAiFeatures(tools) : geminiFeatures(tools),
    wrapper: {},
  };
}

/**
 * Sums features.
 *
 * @param parts Feature values.
 * @returns Per-name sums.
 */
export function addFeatures(...parts: readonly Features[]): Features {
  const out: Record<string, number> = {};
  for (const p of parts) for (const [k, v] of Object.entries(p)) out[k] = (out[k] ?? 0) + v;
  return out;
}

/**
 * The estimate of some features under an entry: `intercept + Σ coefficient × feature` at low,
 * mid and high, rounded to whole tokens; low ≤ mid ≤ high is enforced (an entry whose high
 * coefficients undershoot its mid, as a fitted one may, still gives an ordered interval).
 *
 * @param entry The calibration entry.
 * @param features Summed features.
 * @param withIntercept Whether the request's fixed overhead is included (the catalog: yes; one
 *   server's share of it: no).
 * @returns `{tokens, low, high}`.
 */
export function estimateTokens(
  entry: CalibrationEntry,
  features: Features,
  withIntercept: boolean,
): { tokens: number; low: number; high: number } {
  const at = (k: keyof Interval) => {
    let v = withIntercept ? entry.intercept[k] : 0;
    for (const [name, c] of Object.entries(entry.coefficients)) v += c[k] * (features[name] ?? 0);
    return Math.round(v);
  };
  const mid = at("mid");
  return { tokens: mid, low: Math.min(at("low"), mid), high: Math.max(at("high"), mid) };
}
