/**
 * What a tools text's tokens pay for, per tool and per field: the tokens of one exact JSON text
 * (a `tools/list` array as received, or a provider request's `tools` value) attributed to the
 * tool items it holds and, inside each, to the MCP field they come from.
 *
 * Method: the text is counted as it is written from its value ({@linkcode attributeToolsValue}),
 * or, for a given text, as its `JSON.parse` value is written again when that gives the same text
 * back, else from the spans the lossless parser finds (literals and escapes as written); each
 * token is credited to the span holding its first UTF-8 byte (`RegionTally` and `tokenRegions`,
 * lib/tokens: counted at the speed of counting, only the pieces that cross a span's edge are
 * split into tokens; a written text is counted tool by tool, never held whole). A member of a
 * tool item is a span from its key's opening quote to the end of its value, classified by its
 * key ({@linkcode FIELD_OF_KEY}: `inputSchema`, Anthropic's `input_schema`, OpenAI's `parameters`
 * and Gemini's `parametersJsonSchema` are all `inputSchema`); a `function` member (Chat
 * Completions) is looked into. What lies inside an item but in no member (braces, commas, a
 * format's own keys such as `"type":"function"` or `"strict":false`) is the item's `envelope`;
 * what lies outside every item (the array's brackets, the commas between items, Gemini's
 * `functionDeclarations` wrapper) is the text's `envelope`. So the fields of every item plus the
 * text's envelope sum exactly to the text's token count.
 *
 * @module
 */
import { type JsonNode, type JsonObjectNode, parseJsonLossless } from "../catalog/canonical.ts";
import type { JsonObject, JsonValue } from "../catalog/types.ts";
import { type KnownAt, RegionTally, tokenRegions } from "../tokens/spans.ts";
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

/** The field of a member key of a tool item (`other` when not listed). */
const fieldOf = (key: string): FieldName =>
  Object.hasOwn(FIELD_OF_KEY, key) ? FIELD_OF_KEY[key] : "other";

/** The field of a member key of a tool item; keys not listed are `other`. */
export const FIELD_OF_KEY: Readonly<Record<string, FieldName>> = {
  name: "name",
  title: "title",
  description: "description",
  inputSchema: "inputSchema",
  input_schema: "inputSchema",
  parameters: "inputSchema",
  parametersJsonSchema: "inputSchema",
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

/**
 * Where a text's tokens go: region `k` (from `cuts[k - 1]` to `cuts[k]`, UTF-16 indices; the first
 * from 0, the last to the end) belongs to item `item[k]` (-1: none, the text's envelope) and field
 * `field[k]`.
 */
interface Layout {
  readonly cuts: number[];
  readonly item: number[];
  readonly field: FieldName[];
  /** The members' value texts where they are (counted once wherever they recur). */
  readonly known: KnownAt[];
}

function newLayout(): Layout & { cut(at: number, item: number, field: FieldName): void } {
  const cuts: number[] = [];
  const item = [-1];
  const field: FieldName[] = ["envelope"];
  return {
    cuts,
    item,
    field,
    known: [],
    cut(at, i, f) {
      cuts.push(at);
      item.push(i);
      field.push(f);
    },
  };
}

const isObject = (v: JsonValue | undefined): v is JsonObject =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Where the text being written goes: its parts, the regions they fall in, where it may be cut. */
interface ToolsOut {
  put(s: string, known?: boolean): void;
  /** A region of item `item` (-1: none, the text's envelope) and field `field` starts here. */
  cut(item: number, field: FieldName): void;
  /** An item starts here (a chunk of the text may end at the next piece boundary). */
  item(): void;
}

/** `JSON.stringify` of a member value or a key, through a memo when one is shared. */
type Stringify = (v: JsonValue) => string | undefined;

const stringify: Stringify = (v) => JSON.stringify(v);

/**
 * `JSON.stringify(value)` written part by part to `out`, with its regions: an item's start opens
 * its envelope, each member's start its field and its end the item's envelope again, the item's
 * end the text's envelope. Member values are marked known (counted once wherever they recur).
 * Yields after each item, so several texts can be written in step ({@linkcode attributeToolsValues}).
 */
function* writeTools(
  value: JsonValue,
  items: "array" | "gemini",
  out: ToolsOut,
  text: Stringify = stringify,
): Generator<void, void, void> {
  const put = (s: string) => out.put(s);
  let next = 0;
  const members = (obj: JsonObject, i: number) => {
    let first = true;
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      const inner = key === "function" && isObject(v); // Chat Completions: looked into
      const s = inner ? "" : text(v);
      if (s === undefined) continue; // JSON.stringify leaves such members out
      if (!first) put(",");
      first = false;
      if (inner) {
        put(`${JSON.stringify(key)}:{`);
        members(v, i);
        put("}");
        continue;
      }
      out.cut(i, fieldOf(key));
      put(`${JSON.stringify(key)}:`);
      out.put(s, true);
      out.cut(i, "envelope");
    }
  };
  function* element(v: JsonValue, asItem: boolean): Generator<void, void, void> {
    if (!asItem || !isObject(v)) {
      put(JSON.stringify(v) ?? "null");
      return;
    }
    const i = next++;
    out.item();
    out.cut(i, "envelope");
    put("{");
    members(v, i);
    put("}");
    out.cut(-1, "envelope");
    yield;
  }
  function* array(
    a: readonly JsonValue[],
    each: (v: JsonValue) => Generator<void, void, void>,
  ): Generator<void, void, void> {
    put("[");
    for (let k = 0; k < a.length; k++) {
      if (k > 0) put(",");
      yield* each(a[k]);
    }
    put("]");
  }
  if (!Array.isArray(value)) put(JSON.stringify(value));
  else if (items === "array") yield* array(value, (v) => element(v, true));
  else {
    // Gemini: [{functionDeclarations: [...]}], the declarations are the items.
    yield* array(value, function* (tool) {
      if (!isObject(tool)) return yield* element(tool, false);
      put("{");
      let first = true;
      for (const key of Object.keys(tool)) {
        const v = tool[key];
        const decls = key === "functionDeclarations" && Array.isArray(v);
        const s = decls ? "" : JSON.stringify(v) as string | undefined;
        if (s === undefined) continue;
        if (!first) put(",");
        first = false;
        put(`${JSON.stringify(key)}:`);
        if (decls) yield* array(v as JsonValue[], (d) => element(d, true));
        else put(s);
      }
      put("}");
    });
  }
}

/** Runs a writer to its end. */
function drain(writer: Generator<void, void, void>): void {
  while (!writer.next().done) { /* one item per step */ }
}

const FIELD_INDEX = new Map(FIELD_NAMES.map((f, k) => [f, k]));

/**
 * Counts a tools text as it is written, tool by tool (`RegionTally`: only one tool's text is
 * held at a time), adding each region's tokens to its item and field.
 */
function tallyTools(tokenizer: TokenizerName): ToolsOut & { result(): TextAttribution } {
  const nf = FIELD_NAMES.length;
  const counts: { tokens: number; fields: Record<FieldName, number> }[] = [];
  let envelope = 0;
  const tally = new RegionTally(tokenizer, (label, n) => {
    if (label < 0) {
      envelope += n;
      return;
    }
    const c = counts[Math.floor(label / nf)];
    const f = FIELD_NAMES[label % nf];
    c.tokens += n;
    c.fields[f] = (c.fields[f] ?? 0) + n;
  }, -1);
  return {
    put: (s, known) => tally.put(s, known),
    cut: (item, field) => tally.region(item < 0 ? -1 : item * nf + FIELD_INDEX.get(field)!),
    item: () => {
      counts.push({ tokens: 0, fields: {} as Record<FieldName, number> });
      tally.mayCut();
    },
    result: () => {
      const { tokens, byteLength } = tally.finish();
      return { tokens, bytes: byteLength, items: counts, envelope };
    },
  };
}

/** One written text sent to several tallies. */
function fanOut(outs: readonly ToolsOut[]): ToolsOut {
  return {
    put: (s, known) => {
      for (const out of outs) out.put(s, known);
    },
    cut: (item, field) => {
      for (const out of outs) out.cut(item, field);
    },
    item: () => {
      for (const out of outs) out.item();
    },
  };
}

/** The layout of a text from the lossless parser (members, literals and escapes as written). */
function parsedLayout(text: string, items: "array" | "gemini"): Layout {
  const root = parseJsonLossless(text);
  const layout = newLayout();
  const spans = (item: JsonObjectNode, i: number) => {
    for (const m of item.members) {
      if (m.key === "function" && m.node.kind === "object") {
        spans(m.node, i);
        continue;
      }
      layout.cut(m.keyStart ?? m.node.start, i, fieldOf(m.key));
      layout.known.push({ at: m.node.start, text: text.slice(m.node.start, m.node.end) });
      layout.cut(m.node.end, i, "envelope");
    }
  };
  (items === "gemini" ? geminiItems(root) : arrayItems(root)).forEach((n, i) => {
    layout.cut(n.start, i, "envelope");
    spans(n, i);
    layout.cut(n.end, -1, "envelope");
  });
  return layout;
}

/** Counts `text` by the regions of its layout and adds them up per item and field. */
function attribute(
  text: string,
  layout: Layout,
  items: number,
  tokenizer: TokenizerName,
): TextAttribution {
  const r = tokenRegions(text, tokenizer, layout.cuts, { known: layout.known });
  const counts = Array.from({ length: items }, () => ({
    tokens: 0,
    fields: {} as Record<FieldName, number>,
  }));
  let envelope = 0;
  let tokens = 0;
  for (let k = 0; k < r.tokens.length; k++) {
    const n = r.tokens[k];
    tokens += n;
    if (n === 0) continue;
    const i = layout.item[k];
    if (i < 0) {
      envelope += n;
      continue;
    }
    const c = counts[i];
    const f = layout.field[k];
    c.tokens += n;
    c.fields[f] = (c.fields[f] ?? 0) + n;
  }
  return { tokens, bytes: r.byteLength, items: counts, envelope };
}

const itemCount = (layout: Layout) => layout.item.reduce((n, i) => Math.max(n, i + 1), 0);

/**
 * Attributes the tokens of a tools text to its items and their fields (see the module doc).
 *
 * @param text The exact text (no whitespace is assumed or removed).
 * @param tokenizer Encoding whose tokens are counted (`tokenRegions`, lib/tokens).
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
  let value: JsonValue | undefined;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: the lossless parser says where.
  }
  return attributeParsedText(text, value, [tokenizer], items)[0];
}

/**
 * {@linkcode attributeToolsText} of a text whose `JSON.parse` value the caller has, for several
 * encodings at once (the text is written again or parsed once for all of them).
 *
 * @param text The exact text.
 * @param value `JSON.parse(text)`, or undefined when it throws.
 * @param tokenizers Encodings whose tokens are counted.
 * @param items Where the tool items are. @default {"array"}
 * @returns Per encoding, in the order given: tokens, bytes, per-item fields and the envelope.
 * @throws {SyntaxError} When `text` is not JSON.
 */
export function attributeParsedText(
  text: string,
  value: JsonValue | undefined,
  tokenizers: readonly TokenizerName[],
  items: "array" | "gemini" = "array",
): TextAttribution[] {
  if (value !== undefined) {
    // Written again from its value, checked part by part against the text, and counted as written.
    const outs = tokenizers.map((tok) => tallyTools(tok));
    let at = 0;
    let same = true;
    drain(writeTools(value, items, {
      ...fanOut(outs),
      put: (s, known) => {
        if (same && text.startsWith(s, at)) {
          at += s.length;
          for (const out of outs) out.put(s, known);
        } else same = false;
      },
    }));
    if (same && at === text.length) return outs.map((out) => out.result());
  }
  const layout = parsedLayout(text, items);
  return tokenizers.map((tok) => attribute(text, layout, itemCount(layout), tok));
}

/**
 * Attributes the tokens of `JSON.stringify(value)` (a provider request's `tools` value, say) to
 * its items and fields: {@linkcode attributeToolsText} of that text, which is written here with
 * its layout rather than parsed back.
 *
 * @param value A tools value (plain JSON data).
 * @param tokenizer Encoding whose tokens are counted.
 * @param items Where the tool items are (see {@linkcode attributeToolsText}). @default {"array"}
 * @returns Tokens, bytes, per-item fields and the text's envelope.
 */
export function attributeToolsValue(
  value: JsonValue,
  tokenizer: TokenizerName,
  items: "array" | "gemini" = "array",
): TextAttribution {
  return attributeToolsValues([{ value, items }], [tokenizer])[0][0];
}

/** A tools value and where its items are (see {@linkcode attributeToolsText}). */
export interface ToolsValue {
  /** The value (plain JSON data). */
  readonly value: JsonValue;
  /** `array` or `gemini`. */
  readonly items: "array" | "gemini";
}

/**
 * {@linkcode attributeToolsValue} of several values for several encodings, each text written
 * once for all encodings, and the texts written in step, item by item: a member value that
 * the texts' items share (the same schema object or description in each request format) is
 * turned into JSON once per item, not once per text.
 *
 * @param values Tools values, usually one catalog's in several request formats.
 * @param tokenizers Encodings whose tokens are counted.
 * @returns Per value, per encoding (in the orders given): tokens, bytes, per-item fields and
 *   the envelope.
 */
export function attributeToolsValues(
  values: readonly ToolsValue[],
  tokenizers: readonly TokenizerName[],
): TextAttribution[][] {
  const outs = values.map(() => tokenizers.map((tok) => tallyTools(tok)));
  // Member texts of the items being written (objects by identity, strings by value).
  const memo = new Map<JsonValue, string | undefined>();
  const text: Stringify = (v) => {
    if (v === null || (typeof v !== "object" && typeof v !== "string")) return JSON.stringify(v);
    let s = memo.get(v);
    if (s === undefined && !memo.has(v)) memo.set(v, s = JSON.stringify(v));
    return s;
  };
  const writers = values.map((v, k) => writeTools(v.value, v.items, fanOut(outs[k]), text));
  for (let live = writers.length; live > 0;) {
    live = 0;
    for (const w of writers) if (!w.next().done) live++;
    memo.clear();
  }
  return outs.map((o) => o.map((out) => out.result()));
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
