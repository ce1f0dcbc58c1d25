/**
 * What a tools text's tokens pay for, per tool and per field: the tokens of one exact JSON text
 * (a `tools/list` array as received, or a provider request's `tools` value) attributed to the
 * tool items it holds and, inside each, to the MCP field they come from.
 *
 * Method: the text is parsed once with the lossless parser (source offsets kept, nothing
 * re-serialized) and tokenized once; each token is credited to the span holding its first UTF-8
 * byte. A member of a tool item is a span from its key's opening quote to the end of its value,
 * classified by its key ({@linkcode FIELD_OF_KEY}: `inputSchema`, Anthropic's `input_schema` and
 * OpenAI's and Gemini's `parameters` are all `inputSchema`); a `function` member (Chat
 * Completions) is looked into. What lies inside an item but in no member (braces, commas, a
 * format's own keys such as `"type":"function"` or `"strict":false`) is the item's `envelope`;
 * what lies outside every item (the array's brackets, the commas between items, Gemini's
 * `functionDeclarations` wrapper) is the text's `envelope`. So the fields of every item plus the
 * text's envelope sum exactly to the text's token count.
 *
 * @module
 */
import { type JsonNode, type JsonObjectNode, parseJsonLossless } from "../catalog/canonical.ts";
import { tokenByteOffsets } from "../tokens/spans.ts";
import type { TokenizerName } from "../tokens/types.ts";

/** The fields tokens are attributed to, in report order. */
export const FIELD_NAMES = [
  "name",
  "title",
  "description",
  "inputSchema",
  "outputSchema",
  "annotations",
  "icons",
  "_meta",
  "other",
  "envelope",
] as const;

/** One field. `other`: members of no listed field; `envelope`: JSON syntax and format keys. */
export type FieldName = typeof FIELD_NAMES[number];

/** Tokens per field; absent fields count 0. */
export type FieldTokens = { [K in FieldName]?: number };

/** The field of a member key of a tool item; keys not listed are `other`. */
export const FIELD_OF_KEY: Readonly<Record<string, FieldName>> = {
  name: "name",
  title: "title",
  description: "description",
  inputSchema: "inputSchema",
  input_schema: "inputSchema",
  parameters: "inputSchema",
  outputSchema: "outputSchema",
  output_schema: "outputSchema",
  annotations: "annotations",
  icons: "icons",
  _meta: "_meta",
  // A format's own keys around the tool (Chat Completions, Responses, Anthropic options).
  type: "envelope",
  strict: "envelope",
  defer_loading: "envelope",
};

/** Where the tool items of a text are. */
export type ItemLocator = (root: JsonNode) => readonly JsonObjectNode[];

/**
 * Items of a top-level array (a `tools/list` array, Anthropic, OpenAI).
 *
 * @param root The parsed text.
 * @returns Its object items.
 */
export function arrayItems(root: JsonNode): readonly JsonObjectNode[] {
  return root.kind === "array"
    ? root.items.filter((n): n is JsonObjectNode => n.kind === "object")
    : [];
}

/**
 * Items of Gemini's `[{functionDeclarations: [...]}]`.
 *
 * @param root The parsed text.
 * @returns The declarations.
 */
export function geminiItems(root: JsonNode): readonly JsonObjectNode[] {
  const out: JsonObjectNode[] = [];
  if (root.kind !== "array") return out;
  for (const tool of root.items) {
    if (tool.kind !== "object") continue;
    const decl = tool.members.find((m) => m.key === "functionDeclarations")?.node;
    if (decl?.kind === "array") {
      for (const n of decl.items) if (n.kind === "object") out.push(n);
    }
  }
  return out;
}

/** The tokens of one text, per item and field. */
export interface TextAttribution {
  /** Tokens of the whole text. */
  readonly tokens: number;
  /** UTF-8 bytes of the whole text. */
  readonly bytes: number;
  /** Per item, in text order: its tokens and their fields (summing to its tokens). */
  readonly items: readonly { readonly tokens: number; readonly fields: FieldTokens }[];
  /** Tokens outside every item (brackets, separators, wrappers). */
  readonly envelope: number;
}

interface Span {
  readonly start: number;
  readonly end: number;
  readonly item: number;
  readonly field: FieldName;
}

/** UTF-8 byte offset of every UTF-16 index of `text` (length `text.length + 1`). */
function utf8Offsets(text: string): Int32Array {
  const table = new Int32Array(text.length + 1);
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    table[i] = bytes;
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        table[i + 1] = bytes - 2;
        i++;
        continue;
      }
      bytes += 3;
    } else bytes += 3;
  }
  table[text.length] = bytes;
  return table;
}

function memberSpans(item: JsonObjectNode, index: number, out: Span[]): void {
  for (const m of item.members) {
    if (m.key === "function" && m.node.kind === "object") {
      memberSpans(m.node, index, out);
      continue;
    }
    out.push({
      start: m.keyStart ?? m.node.start,
      end: m.node.end,
      item: index,
      field: FIELD_OF_KEY[m.key] ?? "other",
    });
  }
}

/**
 * Attributes the tokens of a tools text to its items and their fields (see the module doc).
 *
 * @param text The exact text (no whitespace is assumed or removed).
 * @param tokenizer Encoding whose tokens are counted (`tokenByteOffsets`, lib/tokens).
 * @param items Where the tool items are: `array` (a top-level array's objects: `tools/list`,
 *   Anthropic, OpenAI) or `gemini` (`[{functionDeclarations: [...]}]`). @default {"array"}
 * @returns Tokens, bytes, per-item fields and the text's envelope.
 * @throws {SyntaxError} When `text` is not JSON.
 *
 * @example Usage
 * ```ts
 * import { attributeToolsText } from "./fields.ts";
 * const a = attributeToolsText('[{"name":"add","description":"Add two numbers"}]', "o200k_base");
 * const f = a.items[0].fields;
 * if (a.tokens !== a.envelope + a.items[0].tokens) throw new Error();
 * if ((f.name ?? 0) + (f.description ?? 0) + (f.envelope ?? 0) !== a.items[0].tokens) throw new Error();
 * ```
 */
export function attributeToolsText(
  text: string,
  tokenizer: TokenizerName,
  items: "array" | "gemini" = "array",
): TextAttribution {
  const root = parseJsonLossless(text);
  const nodes = items === "gemini" ? geminiItems(root) : arrayItems(root);
  const itemSpans: { start: number; end: number }[] = nodes.map((n) => ({
    start: n.start,
    end: n.end,
  }));
  const spans: Span[] = [];
  nodes.forEach((n, i) => memberSpans(n, i, spans));
  spans.sort((a, b) => a.start - b.start);
  const { starts, byteLength } = tokenByteOffsets(text, tokenizer);
  const table = utf8Offsets(text);
  const counts = nodes.map(() => ({ tokens: 0, fields: {} as Record<FieldName, number> }));
  let envelope = 0;
  let s = 0;
  let it = 0;
  for (const start of starts) {
    while (it < itemSpans.length && table[itemSpans[it].end] <= start) it++;
    const item = itemSpans[it];
    if (item === undefined || table[item.start] > start) {
      envelope++;
      continue;
    }
    while (s < spans.length && table[spans[s].end] <= start) s++;
    const span = spans[s];
    const field: FieldName = span !== undefined && span.item === it && table[span.start] <= start
      ? span.field
      : "envelope";
    const c = counts[it];
    c.tokens++;
    c.fields[field] = (c.fields[field] ?? 0) + 1;
  }
  return { tokens: starts.length, bytes: byteLength, items: counts, envelope };
}

/**
 * Sums field counts.
 *
 * @param parts Field counts.
 * @returns Their per-field sums (fields that are 0 everywhere left out).
 */
export function addFields(...parts: readonly FieldTokens[]): FieldTokens {
  const out: Record<string, number> = {};
  for (const p of parts) {
    for (const k of FIELD_NAMES) {
      const v = p[k];
      if (v !== undefined && v !== 0) out[k] = (out[k] ?? 0) + v;
    }
  }
  return out as FieldTokens;
}
