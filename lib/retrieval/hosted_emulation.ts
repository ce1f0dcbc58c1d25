/**
 * Emulations of the providers' hosted tool searches, scored on the golden sets like the other
 * retrievers and labelled `emulated`: what each searches is what the provider documents, and
 * every choice the documents leave open is listed in the entry's `hosted.differences`.
 *
 * - `anthropic_bm25` stands for `tool_search_tool_bm25_20251119`: BM25 over the tool name, its
 *   description and its argument names and descriptions (the four fields Anthropic's tool-search
 *   page says both variants search), at most 5 tools per search (the page: "returns 3-5 most
 *   relevant tools per search").
 * - `anthropic_regex` stands for `tool_search_tool_regex_20251119`: the request turned into the
 *   pattern a model would write by {@linkcode regexPatternFor}, matched like Python's `re.search`
 *   against the same four fields, at most 5 tools.
 * - `openai_search` stands for the Responses API's hosted `tool_search`: OpenAI documents no
 *   ranking, only that the model sees the names and descriptions of what is searchable
 *   (namespaces, i.e. MCP servers, and functions), so BM25 over name, server and description.
 *
 * Sources: platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool,
 * developers.openai.com/api/docs/guides/tools-tool-search (docs/exposure-modes.md quotes them).
 *
 * @module
 */

import { createBm25Retriever } from "./bm25.ts";
import { isStopWord } from "./_analysis.ts";
import { checkLimit } from "./_limit.ts";
import { TopHits } from "./_top_hits.ts";
import { WordRuns } from "./_word_runs.ts";
import type { Hit, HostedSearchInfo, RetrievalDoc, Retriever, RetrieverEntry } from "./types.ts";

/** Anthropic's tool-search page, the source of the Anthropic emulations. */
export const ANTHROPIC_TOOL_SEARCH_DOCS =
  "https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool";

/** OpenAI's tool-search guide, the source of the OpenAI emulation. */
export const OPENAI_TOOL_SEARCH_DOCS =
  "https://developers.openai.com/api/docs/guides/tools-tool-search";

/** Most tool references one Anthropic search returns ("3-5 most relevant tools per search"). */
export const ANTHROPIC_MAX_REFERENCES = 5;

/** Longest regex pattern Anthropic accepts (characters). */
export const ANTHROPIC_MAX_PATTERN = 200;

/**
 * The argument names and descriptions of a tool, from its `params` index text: when the text
 * is a JSON Schema (the default index, canonical `inputSchema` JSON), every property name and
 * every property's `description`, at any depth (nested objects and array items too), in
 * document order; otherwise (an encoding arm's own rendering of the parameters) the text as it is.
 *
 * @param params A document's `params` field.
 * @returns Space-joined names and descriptions (`""` for a schema without properties).
 *
 * @example Usage
 * ```ts
 * import { argumentText } from "./hosted_emulation.ts";
 * const schema = '{"properties":{"path":{"description":"File to read","type":"string"}},"type":"object"}';
 * if (argumentText(schema) !== "path File to read") throw new Error(argumentText(schema));
 * ```
 */
export function argumentText(params: string): string {
  if (params === "") return "";
  let schema: unknown;
  try {
    schema = JSON.parse(params);
  } catch {
    return params;
  }
  if (schema === null || typeof schema !== "object") return params;
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const x of node) walk(x);
      return;
    }
    const o = node as Record<string, unknown>;
    const props = o.properties;
    if (props !== null && typeof props === "object" && !Array.isArray(props)) {
      for (const [name, sub] of Object.entries(props as Record<string, unknown>)) {
        out.push(name);
        const d = (sub as { description?: unknown } | null)?.description;
        if (typeof d === "string" && d !== "") out.push(d);
        walk(sub);
      }
    }
    for (const key of ["items", "anyOf", "oneOf", "allOf", "additionalProperties"]) {
      if (key in o) walk(o[key]);
    }
    for (const key of ["$defs", "definitions"]) {
      const defs = o[key];
      if (defs !== null && typeof defs === "object") walk(Object.values(defs));
    }
  };
  walk(schema);
  return out.join(" ");
}

const ARGUMENT_TEXTS = new WeakMap<readonly RetrievalDoc[], readonly string[]>();

/**
 * {@linkcode argumentText} of each document's `params`, made once per document array and kept
 * as long as it lives (both Anthropic emulations read them). Exact: a pure function of the
 * texts, and a document array is not changed after it is made.
 */
function argumentTexts(docs: readonly RetrievalDoc[]): readonly string[] {
  let texts = ARGUMENT_TEXTS.get(docs);
  if (texts === undefined) {
    ARGUMENT_TEXTS.set(
      docs,
      texts = docs.map((d) => argumentText(d.params)),
    );
  }
  return texts;
}

/**
 * The regex a model would write for a request, by mcpmeter's stated rule (after the patterns of
 * Anthropic's page: `"weather"`, `"database.*query|query.*database"`, `"(?i)slack"`): the
 * request's words (runs of letters and digits, lower-cased), without English stop words and
 * words shorter than 3 characters, each once in order; a word longer than 4 characters that ends
 * in a single `s` loses it (`files` → `file`, which still matches `files`); joined with `|`
 * behind `(?i)`, and cut at the last whole word that keeps the pattern within 200 characters.
 * A request with no such word gives `null` (no search).
 *
 * @param request The user's request.
 * @returns The pattern, or `null`.
 *
 * @example Usage
 * ```ts
 * import { regexPatternFor } from "./hosted_emulation.ts";
 * if (regexPatternFor("Read the files in my notes folder") !== "(?i)read|file|note|folder") {
 *   throw new Error(String(regexPatternFor("Read the files in my notes folder")));
 * }
 * ```
 */
export function regexPatternFor(request: string): string | null {
  const words: string[] = [];
  for (const raw of request.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (raw.length < 3 || isStopWord(raw)) continue;
    const w = raw.length > 4 && raw.endsWith("s") && !raw.endsWith("ss") ? raw.slice(0, -1) : raw;
    if (!words.includes(w)) words.push(w);
  }
  if (words.length === 0) return null;
  let pattern = "(?i)";
  for (const [i, w] of words.entries()) {
    const next = `${pattern}${i === 0 ? "" : "|"}${w}`;
    if (next.length > ANTHROPIC_MAX_PATTERN) break;
    pattern = next;
  }
  return pattern === "(?i)" ? null : pattern;
}

/** A pattern that does not compile, or is over the length limit (Anthropic's error codes). */
export class ToolSearchPatternError extends Error {
  /** `invalid_pattern` or `pattern_too_long`. */
  readonly code: "invalid_pattern" | "pattern_too_long";
  /**
   * Builds the error.
   *
   * @param code Error code.
   * @param message One line.
   */
  constructor(code: "invalid_pattern" | "pattern_too_long", message: string) {
    super(message);
    this.name = "ToolSearchPatternError";
    this.code = code;
  }
}

/**
 * Compiles a Python `re` pattern as a JavaScript one for what tool-search patterns use: a
 * leading `(?i)` becomes the `i` flag (JavaScript has no global inline flag); the rest is the
 * common syntax (classes, alternation, `.*`, escapes).
 *
 * @param pattern The pattern as a model wrote it.
 * @returns The compiled expression.
 * @throws {ToolSearchPatternError} `pattern_too_long` over 200 characters, `invalid_pattern` when
 *   it does not compile.
 */
export function compileToolSearchPattern(pattern: string): RegExp {
  if (pattern.length > ANTHROPIC_MAX_PATTERN) {
    throw new ToolSearchPatternError(
      "pattern_too_long",
      `pattern of ${pattern.length} characters is over the ${ANTHROPIC_MAX_PATTERN}-character limit`,
    );
  }
  const insensitive = pattern.startsWith("(?i)");
  try {
    return new RegExp(insensitive ? pattern.slice(4) : pattern, insensitive ? "iu" : "u");
  } catch (e) {
    throw new ToolSearchPatternError(
      "invalid_pattern",
      `pattern ${JSON.stringify(pattern)} does not compile: ${(e as Error).message}`,
    );
  }
}

/** The text a regex search matches, per document. */
interface RegexDoc {
  readonly id: string;
  readonly name: string;
  /** Name, description and argument text, one per line (`.` does not cross them). */
  readonly text: string;
  /** `name` and `text` lower-cased, for the literal alternatives of a `(?i)` pattern. */
  readonly lowerName: string;
  readonly lowerText: string;
}

/**
 * The documents a regex search reads, each part made at the first search that needs it: the
 * texts (for an alternative that is not a plain word), the documents holding each word of the
 * lower-cased texts and names (for a plain word: the texts are not kept for these), and the
 * matches of each plain word met (a request's words recur across queries).
 */
interface RegexIndex {
  readonly ids: readonly string[];
  readonly docs: () => readonly RegexDoc[];
  readonly words: () => WordRuns;
  readonly nameWords: () => WordRuns;
  readonly memo?: Map<string, PartMatches>;
}

/**
 * Where one alternative matches: the documents (ascending) and, per document, 1 when it matches
 * in the text only, 2 when it matches in the name (and so in the text).
 */
interface PartMatches {
  readonly docs: Int32Array;
  readonly weights: Uint8Array;
}

/**
 * Where one alternative matches. A plain word under `(?i)` is found by a lower-case substring
 * search (the same matches as the expression for letters and digits); when the lower-cased word
 * is letters and digits only, every occurrence lies inside one run of letters and digits of the
 * text, so the candidates are the documents of the runs that contain it. Anything else is tested
 * with the compiled expression on every document. A plain word's matches are kept in the memo.
 */
function partMatches(index: RegexIndex, source: string, flags: string, memo: boolean): PartMatches {
  const literal = flags.includes("i") && /^[\p{L}\p{N} _-]+$/u.test(source);
  const word = source.toLowerCase();
  const known = literal && memo ? index.memo?.get(word) : undefined;
  if (known !== undefined) return known;
  let out: PartMatches;
  if (literal && /^[\p{L}\p{N}]+$/u.test(word)) {
    const found = index.words().textsContaining(word);
    const inName = new Uint8Array(index.ids.length);
    for (const d of index.nameWords().textsContaining(word)) inName[d] = 1;
    const weights = new Uint8Array(found.length);
    for (let j = 0; j < found.length; j++) weights[j] = 1 + inName[found[j]];
    out = { docs: found, weights };
  } else {
    const found: number[] = [];
    const weights: number[] = [];
    const re = literal ? undefined : new RegExp(source, flags);
    const docs = index.docs();
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i];
      const inText = re === undefined ? d.lowerText.includes(word) : re.test(d.text);
      if (!inText) continue;
      found.push(i);
      weights.push((re === undefined ? d.lowerName.includes(word) : re.test(d.name)) ? 2 : 1);
    }
    out = { docs: Int32Array.from(found), weights: Uint8Array.from(weights) };
  }
  if (literal && memo) index.memo?.set(word, out);
  return out;
}

/**
 * Ranks the documents a pattern matches, as the `anthropic_regex` emulation does (Anthropic does
 * not document the order of matches): a document matches when the pattern is found in its name,
 * description or argument text; its score is the number of the pattern's top-level alternatives
 * found anywhere in it plus the number found in its name (a name match counts twice); ties by id.
 *
 * @param index Documents with name, description and argument text.
 * @param pattern The pattern (Python syntax as {@linkcode compileToolSearchPattern} reads it).
 * @param limit Most hits.
 * @returns Hits, score descending, then id ascending.
 * @throws {ToolSearchPatternError} for a pattern that is too long or does not compile.
 */
function regexSearch(index: RegexIndex, pattern: string, limit: number): Hit[] {
  const whole = compileToolSearchPattern(pattern);
  const flags = whole.flags;
  // The whole pattern matches where one of its top-level alternatives does, so each is tested
  // once per document; a pattern whose alternatives do not compile alone is tested whole.
  let parts: PartMatches[];
  try {
    parts = splitAlternatives(whole.source).map((p) => partMatches(index, p, flags, true));
  } catch {
    parts = [];
  }
  if (parts.length === 0) parts = [partMatches(index, whole.source, flags, false)];
  const scores = new Int32Array(index.ids.length);
  const matched: number[] = [];
  for (const p of parts) {
    for (let j = 0; j < p.docs.length; j++) {
      const d = p.docs[j];
      if (scores[d] === 0) matched.push(d);
      scores[d] += p.weights[j];
    }
  }
  const top = new TopHits(index.ids, Math.min(limit, matched.length));
  for (const d of Int32Array.from(matched).sort()) top.offer(d, scores[d]);
  return top.hits();
}

/** The top-level `|` alternatives of a pattern (not inside groups or classes). */
function splitAlternatives(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out.filter((p) => p !== "");
}

/**
 * Tools as sent to a provider, as a regex index: name, description and argument text.
 *
 * @param docs Retrieval documents (`params`: schema JSON or an arm's rendering).
 * @param memo Where plain words' matches are kept across searches, if anywhere.
 * @returns The index the regex search reads.
 */
function regexIndex(docs: readonly RetrievalDoc[], memo?: Map<string, PartMatches>): RegexIndex {
  const args = argumentTexts(docs);
  const textOf = (d: RetrievalDoc, i: number) =>
    [d.name, d.description, args[i]].filter((f) => f !== "").join("\n");
  let prepared: RegexDoc[] | undefined;
  let words: WordRuns | undefined;
  let nameWords: WordRuns | undefined;
  return {
    ids: docs.map((d) => d.id),
    memo,
    docs: () =>
      prepared ??= docs.map((d, i): RegexDoc => {
        const text = textOf(d, i);
        return {
          id: d.id,
          name: d.name,
          text,
          lowerName: d.name.toLowerCase(),
          lowerText: text.toLowerCase(),
        };
      }),
    words: () =>
      words ??= new WordRuns(
        prepared?.map((d) => d.lowerText) ?? docs.map((d, i) => textOf(d, i).toLowerCase()),
      ),
    nameWords: () =>
      nameWords ??= new WordRuns(
        prepared?.map((d) => d.lowerName) ?? docs.map((d) => d.name.toLowerCase()),
      ),
  };
}

/**
 * Searches documents with a pattern a model wrote, the way the scripted model and the
 * `anthropic_regex` emulation answer a `tool_search_tool_regex` call.
 *
 * @param docs Documents (tools as sent: `params` is the input schema JSON).
 * @param pattern The model's pattern.
 * @param limit Most hits. @default {ANTHROPIC_MAX_REFERENCES}
 * @returns Ranked hits.
 * @throws {ToolSearchPatternError} for a pattern that is too long or does not compile.
 */
export function searchByPattern(
  docs: readonly RetrievalDoc[],
  pattern: string,
  limit = ANTHROPIC_MAX_REFERENCES,
): Hit[] {
  return regexSearch(regexIndex(docs), pattern, limit);
}

const ANTHROPIC_COMMON_DIFFERENCES = [
  "the hosted search returns 3 to 5 references and decides how many; the emulation always returns up to 5",
  "the hosted search reads the tool definitions as sent in the request (a name the provider accepts, the normalized schema); the emulation reads the corpus tool (its name, description and inputSchema as captured)",
  "the hosted search runs on the model's own query; the emulation searches the golden query text itself (one search per query, no reformulation, no second search)",
];

/** What `anthropic_bm25` stands for and how it differs. */
export const ANTHROPIC_BM25_EMULATION: HostedSearchInfo = {
  provider: "anthropic",
  tool: "tool_search_tool_bm25_20251119",
  kind: "emulated",
  maxResults: ANTHROPIC_MAX_REFERENCES,
  source: ANTHROPIC_TOOL_SEARCH_DOCS,
  differences: [
    ...ANTHROPIC_COMMON_DIFFERENCES,
    "Anthropic does not document its BM25 tokenizer, parameters or field weights; the emulation splits camelCase and snake_case, lower-cases, drops English stop words, does not stem, weighs name, description and argument text equally, k1 = 1.2, b = 0.75",
  ],
};

/** What `anthropic_regex` stands for and how it differs. */
export const ANTHROPIC_REGEX_EMULATION: HostedSearchInfo = {
  provider: "anthropic",
  tool: "tool_search_tool_regex_20251119",
  kind: "emulated",
  maxResults: ANTHROPIC_MAX_REFERENCES,
  source: ANTHROPIC_TOOL_SEARCH_DOCS,
  differences: [
    ...ANTHROPIC_COMMON_DIFFERENCES,
    "the model writes its own pattern; the emulation writes it by a fixed rule: (?i) and the request's content words (3+ characters, no stop words, a plural s dropped) joined with |",
    "Anthropic does not document the order of matching tools; the emulation ranks by the number of alternatives matched (a name match counts twice), ties by id",
    "patterns run as JavaScript regular expressions (a leading (?i) becomes the i flag); Python re syntax beyond what the rule writes may compile differently",
  ],
};

/** What `openai_search` stands for and how it differs. */
export const OPENAI_SEARCH_EMULATION: HostedSearchInfo = {
  provider: "openai",
  tool: "tool_search",
  kind: "emulated",
  maxResults: null,
  source: OPENAI_TOOL_SEARCH_DOCS,
  differences: [
    "OpenAI documents no ranking for the hosted tool_search; the emulation is BM25 over what the guide says the model sees of a deferred tool: its name, its namespace (the MCP server) and its description, weighed equally, k1 = 1.2, b = 0.75, no stemming",
    "OpenAI documents no number of tools per search; the emulation returns as many as asked (up to 10 for the metrics)",
    "the hosted search may load a whole namespace at once; the emulation ranks single tools",
    "the hosted search runs on the model's own query; the emulation searches the golden query text itself",
  ],
};

/** A retriever wrapped as a hosted-search emulation: renamed, capped, labelled. */
function emulated(
  name: string,
  base: Retriever,
  hosted: HostedSearchInfo,
  config: Retriever["config"],
): Retriever {
  const cap = hosted.maxResults;
  return {
    name,
    config,
    hosted,
    search(query: string, limit: number): readonly Hit[] {
      checkLimit(limit);
      return base.search(query, cap === null ? limit : Math.min(limit, cap));
    },
  };
}

/**
 * Why an emulation is scored on the plain index only: the hosted search indexes the tool
 * definitions the client sends, so a row on an encoding arm's rendering would measure nothing
 * the provider does.
 */
const HOSTED_PLAIN_INDEX_ONLY =
  "the hosted search it emulates indexes the tool definitions the client sends, never an encoding arm's rendering of them";

/** BM25 weights of the Anthropic emulation: the documented fields, equally. */
const ANTHROPIC_BM25_WEIGHTS = { name: 1, description: 1, params: 1, server: 0 };

/** BM25 weights of the OpenAI emulation: name, namespace and description, equally. */
const OPENAI_BM25_WEIGHTS = { name: 1, description: 1, params: 0, server: 1 };

/** Registry entry of `anthropic_bm25`. */
export const anthropicBm25Entry: RetrieverEntry = {
  name: "anthropic_bm25",
  label: "Anthropic tool search BM25 (emulated)",
  summary:
    "emulated Anthropic tool_search_tool_bm25: BM25 over name, description, argument names and descriptions, 5 results",
  reads: ["name", "description", "params"],
  needsGolden: false,
  asyncBuild: false,
  reportsCost: false,
  plainIndexOnly: HOSTED_PLAIN_INDEX_ONLY,
  create: (docs) => {
    const base = createBm25Retriever(docs, {
      weights: ANTHROPIC_BM25_WEIGHTS,
      paramsTexts: argumentTexts(docs),
    });
    return emulated("anthropic_bm25", base, ANTHROPIC_BM25_EMULATION, {
      ...base.config,
      params: "argument names and descriptions",
      maxResults: ANTHROPIC_MAX_REFERENCES,
    });
  },
};

/** Registry entry of `anthropic_regex`. */
export const anthropicRegexEntry: RetrieverEntry = {
  name: "anthropic_regex",
  label: "Anthropic tool search regex (emulated)",
  summary:
    "emulated Anthropic tool_search_tool_regex: (?i) and the request's content words joined with |, 5 results",
  reads: ["name", "description", "params"],
  needsGolden: false,
  asyncBuild: false,
  reportsCost: false,
  plainIndexOnly: HOSTED_PLAIN_INDEX_ONLY,
  create: (docs) => {
    const index = regexIndex(docs, new Map());
    const base: Retriever = {
      name: "anthropic_regex",
      config: {},
      search(query: string, limit: number): Hit[] {
        checkLimit(limit);
        const pattern = regexPatternFor(query);
        return pattern === null ? [] : regexSearch(index, pattern, limit);
      },
    };
    return emulated("anthropic_regex", base, ANTHROPIC_REGEX_EMULATION, {
      rule: "(?i) + content words (>= 3 chars, no stop words, plural s dropped) joined with |",
      ranking: "alternatives matched + alternatives matched in the name, ties by id",
      maxResults: ANTHROPIC_MAX_REFERENCES,
    });
  },
};

/** Registry entry of `openai_search`. */
export const openaiSearchEntry: RetrieverEntry = {
  name: "openai_search",
  label: "OpenAI tool_search (emulated)",
  summary:
    "emulated OpenAI hosted tool_search: BM25 over name, namespace (server) and description (OpenAI documents no ranking)",
  reads: ["name", "server", "description"],
  needsGolden: false,
  asyncBuild: false,
  reportsCost: false,
  plainIndexOnly: HOSTED_PLAIN_INDEX_ONLY,
  create: (docs) => {
    const base = createBm25Retriever(docs, { weights: OPENAI_BM25_WEIGHTS });
    return emulated("openai_search", base, OPENAI_SEARCH_EMULATION, base.config);
  },
};
