/**
 * The bench's deferred exposure modes (lib/modes `measureDeferredModes`): each corpus shaped for
 * Anthropic Messages and OpenAI Responses as the agent runner shapes it (lib/billing
 * `shapeTools`), the reference proxy's catalog likewise, the proxy's mean `retrieve_tools`
 * response for the same number of results, and the servers' `instructions` where the corpus
 * file keeps them (a capture does).
 *
 * @module
 */
import { schemaText } from "../catalog/canonical.ts";
import type { Corpus, Tool } from "../catalog/types.ts";
import { type Shapes, shapesOf, shapeTools } from "../billing/sent_layer.ts";
import { captureInstructionsOfBytes } from "../billing/wire.ts";
import { readWhole } from "../core/files.ts";
import {
  DEFAULT_RESULTS_PER_SEARCH,
  type DeferredModeRow,
  type DeferredScalingRow,
  measureDeferredModes,
  renderDeferredModes,
  searchGroups,
} from "../modes/deferred.ts";
import { retrieveResponseText } from "../proxy/responses.ts";
import { createRng, deriveSeed } from "../stats/prng.ts";
import { type GroupCounts, groupCounts, type KnownString } from "../tokens/shared_counts.ts";
import type { Tokenizer } from "../tokens/types.ts";

/** The bench report's deferred-mode sections. */
export interface DeferredSections {
  /** One row per corpus × tokenizer × mode. */
  readonly deferredModes: DeferredModeRow[];
  /** Sampled catalog sizes per corpus × tokenizer × mode. */
  readonly deferredScaling: DeferredScalingRow[];
}

/**
 * Mean tokens of the reference proxy's `retrieve_tools` response (full detail) with `k`
 * results, over the corpus's tools taken `k` at a time in corpus order (as
 * {@linkcode searchGroups} takes them), each scored 1: each response rendered once and counted
 * by every tokenizer, through their group's known strings where they have one (lib/tokens
 * `groupCounts`: the tools' descriptions and schema texts, whose middles the catalog cost and
 * the encoding arms counted already).
 *
 * @param tools The corpus.
 * @param k Results per response.
 * @param tokenizers Count tokens.
 * @returns Mean tokens per tokenizer, in its order (0 for an empty corpus).
 */
export function meanRetrieveTokens(
  tools: readonly Tool[],
  k: number,
  tokenizers: readonly Tokenizer[],
): number[] {
  const byId = new Map(tools.map((t) => [t.id, t]));
  const group = groupCounts(tokenizers);
  const sums = tokenizers.map(() => 0);
  const out = tokenizers.map(() => 0);
  let n = 0;
  for (const found of searchGroups(tools, k)) {
    const hits = found.map((t) => ({ id: t.id, score: 1 }));
    const text = retrieveResponseText(hits, (id) => byId.get(id), "full");
    if (group === undefined) {
      tokenizers.forEach((tokenizer, j) => sums[j] += tokenizer.count(text));
    } else {
      group.countKnown(text, found.flatMap((t) => knownOf(group, t)), out);
      out.forEach((tokens, j) => sums[j] += tokens);
    }
    n += 1;
  }
  return sums.map((sum) => n === 0 ? 0 : sum / n);
}

/**
 * A tool's known strings, in the order a response holds them: its description as written or
 * escaped, and its canonical schema text (the response's when its keys are in canonical order).
 */
function knownOf(group: GroupCounts, tool: Tool): (KnownString | null)[] {
  let schema: string | undefined;
  try {
    schema = schemaText(tool);
  } catch {
    schema = undefined; // no canonical text: the response's schema is counted as it is
  }
  return [
    group.known(tool.description),
    group.knownEscaped(tool.description),
    group.known(schema),
  ];
}

/**
 * Prices the deferred modes of every corpus under every tokenizer. The size draws of corpus
 * `c` and tokenizer `t` use the PRNG seeded with `deriveSeed(seed, "deferred/" + c + "/" + t)`.
 *
 * @param corpora Corpora with the file each was read from (and their tools shaped, when shared).
 * @param proxy The reference proxy's catalog.
 * @param tokenizers Tokenizers, in report order.
 * @param seed The bench seed.
 * @param say Progress lines.
 * @returns The report sections.
 */
export async function measureDeferred(
  corpora: readonly { readonly corpus: Corpus; readonly file: string; readonly shaped?: Shapes }[],
  proxy: readonly Tool[],
  tokenizers: readonly Tokenizer[],
  seed: number,
  say: (message: string) => void,
): Promise<DeferredSections> {
  const deferredModes: DeferredModeRow[] = [];
  const deferredScaling: DeferredScalingRow[] = [];
  const proxyShaped = {
    anthropic: shapeTools(proxy, "anthropic-messages"),
    openai: shapeTools(proxy, "openai-responses"),
  };
  for (const { corpus, file, shaped: shapes = shapesOf(corpus.tools) } of corpora) {
    say(`${corpus.id}: pricing the deferred modes (tool search, Claude Code)`);
    const shaped = (format: "anthropic-messages" | "openai-responses") =>
      shapes(format).map((tool, i) => ({ server: corpus.tools[i].server, tool }));
    const anthropic = shaped("anthropic-messages");
    const openai = shaped("openai-responses");
    const instructions = await serverInstructions(corpus, file);
    const searchTokens = meanRetrieveTokens(corpus.tools, DEFAULT_RESULTS_PER_SEARCH, tokenizers);
    // Rendered once, counted by every tokenizer.
    // A capture file that records every server's instructions says so in its source.
    const source = corpus.provenance.source as { instructionsRecorded?: unknown } | undefined;
    const instructionsRecorded = typeof source === "object" && source !== null &&
      source.instructionsRecorded === true;
    const rendered = renderDeferredModes({ anthropic, openai, instructions, instructionsRecorded });
    for (const [t, tokenizer] of tokenizers.entries()) {
      const rng = createRng(deriveSeed(seed, `deferred/${corpus.id}/${tokenizer.name}`));
      const m = measureDeferredModes({
        corpusId: corpus.id,
        tokenizer,
        anthropic,
        openai,
        proxy: proxyShaped,
        proxySearchTokens: searchTokens[t],
        instructions,
        rendered,
        random: () => rng.next(),
      });
      deferredModes.push(...m.rows);
      deferredScaling.push(...m.scaling);
    }
  }
  return { deferredModes, deferredScaling };
}

/** The servers' `instructions` a capture file keeps; none for the other formats. */
async function serverInstructions(corpus: Corpus, file: string): Promise<Map<string, string>> {
  if (corpus.provenance.format !== "mcpmeter-capture") return new Map();
  // Read server by server from the bytes: a large capture is not held as one string.
  return captureInstructionsOfBytes(await readWhole(file));
}
