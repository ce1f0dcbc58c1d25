/**
 * The proxy's cap on the size of a forwarded `call_tool` result. Pure.
 *
 * A result is measured as the UTF-8 bytes of its JSON text. Over the cap, the proxy keeps the
 * `content` blocks in order while they fit (cutting the text block that crosses the cap on a
 * character boundary), leaves out what does not fit (later blocks, `structuredContent`, other
 * fields), keeps `isError`, and ends the content with a marker text block that says so:
 * `[mcpmeter proxy: result cut to 100000 bytes; the upstream sent 4200000 bytes]`. The same
 * figures are in `_meta["mcpmeter/truncated"]` as `{limitBytes, resultBytes}`.
 *
 * @module
 */
import type { JsonObject } from "../catalog/types.ts";
import type { ToolCallResult } from "./upstream.ts";

/** Default cap of one forwarded result, bytes of UTF-8 JSON (about 25,000 tokens of English). */
export const DEFAULT_MAX_RESULT_BYTES = 100_000;

/** `_meta` key of the truncation record. */
export const TRUNCATED_META_KEY = "mcpmeter/truncated";

const encoder = new TextEncoder();
const bytes = (value: unknown): number => encoder.encode(JSON.stringify(value)).length;

/** The longest prefix of `text` whose JSON string form fits in `budget` bytes. */
function cutText(text: string, budget: number): string {
  let lo = 0;
  let hi = Math.min(text.length, budget); // every character takes at least one byte
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (bytes(text.slice(0, mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  let out = text.slice(0, lo);
  // Do not end on half a surrogate pair.
  if (/[\ud800-\udbff]$/.test(out)) out = out.slice(0, -1);
  return out;
}

/**
 * Caps a `tools/call` result (see the module doc).
 *
 * @param result The upstream's result.
 * @param maxBytes Cap, bytes of UTF-8 JSON; at least 1,024.
 * @returns `result` itself when it fits, else the cut result with its marker.
 * @throws {RangeError} When `maxBytes` is not an integer of at least 1,024.
 *
 * @example Usage
 * ```ts
 * import { capResult } from "./limits.ts";
 * const big = { content: [{ type: "text", text: "x".repeat(5_000) }] };
 * const cut = capResult(big, 2_048);
 * if (JSON.stringify(cut).length > 2_048) throw new Error("over the cap");
 * if (!String(cut.content?.at(-1)?.text).includes("result cut to 2048 bytes")) throw new Error();
 * ```
 */
export function capResult(result: ToolCallResult, maxBytes: number): ToolCallResult {
  if (!Number.isInteger(maxBytes) || maxBytes < 1_024) {
    throw new RangeError(`maxBytes must be an integer >= 1024, got ${maxBytes}`);
  }
  const resultBytes = bytes(result);
  if (resultBytes <= maxBytes) return result;
  const marker = {
    type: "text",
    text:
      `[mcpmeter proxy: result cut to ${maxBytes} bytes; the upstream sent ${resultBytes} bytes]`,
  };
  const shell = (content: readonly JsonObject[]): ToolCallResult => ({
    content,
    ...(result.isError === undefined ? {} : { isError: result.isError }),
    _meta: { [TRUNCATED_META_KEY]: { limitBytes: maxBytes, resultBytes } },
  });
  // What is left for the kept blocks once the marker, isError and _meta are written.
  let budget = maxBytes - bytes(shell([marker])) - 1;
  const kept: JsonObject[] = [];
  for (const block of result.content ?? []) {
    const size = bytes(block) + 1; // the comma
    if (size <= budget) {
      kept.push(block);
      budget -= size;
      continue;
    }
    if (block.type === "text" && typeof block.text === "string") {
      const overhead = bytes({ ...block, text: "" }) + 1;
      if (budget > overhead) kept.push({ ...block, text: cutText(block.text, budget - overhead) });
    }
    break;
  }
  return shell([...kept, marker]);
}
