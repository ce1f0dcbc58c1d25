// The exact counting shortcuts of lib/tokens (shared counts of descriptions and schemas, the
// re-indented counts of TOON's list items) on the renderings the bench gives them, over every
// tool of the reference corpus: each equals the text counted whole by gpt-tokenizer (an
// independent encoder, quicker than js-tiktoken on long texts).
import assert from "node:assert/strict";
import { schemaText } from "../catalog/canonical.ts";
import { loadCatalog } from "../catalog/load.ts";
import { ReindentedCounts } from "../tokens/reindent.ts";
import { sharedCounts } from "../tokens/shared_counts.ts";
import { createTokenizer, TOKENIZER_NAMES } from "../tokens/tokenizers.ts";
import { toonListing } from "./toon_listing.ts";
import { REFERENCE } from "../../testing/encodings.ts";
import { FULL_TIER_ONLY } from "../../testing/quick.ts";

Deno.test(
  "sharedCounts on the reference corpus: every tool text under three renderings",
  FULL_TIER_ONLY,
  async () => {
    const corpus = await loadCatalog(REFERENCE.pathname);
    const tokenizers = TOKENIZER_NAMES.map((n) => createTokenizer(n));
    const whole = TOKENIZER_NAMES.map((n) => createTokenizer(n, "gpt-tokenizer"));
    for (const tool of corpus.tools) {
      const schema = schemaText(tool);
      const known = [tool.description, schema];
      const texts = [
        `${tool.name}\n${tool.description}` + (schema === undefined ? "" : `\n${schema}`),
        `${tool.name}|${tool.description}|${schema ?? ""}`,
        `{"name":${JSON.stringify(tool.name)},"description":${
          JSON.stringify(tool.description)
        },"inputSchema":${schema ?? "{}"}}`,
      ];
      for (const [i, tok] of tokenizers.entries()) {
        for (const text of texts) {
          assert.equal(sharedCounts(tok).count(text, known), whole[i].count(text), tool.id);
        }
      }
    }
    // The memo holds each known string once per tokenizer, whatever the renderings.
    const distinct = new Set(
      corpus.tools.flatMap((t) => [t.description, schemaText(t)]).filter((s) =>
        s !== undefined && s.length >= 32
      ),
    );
    for (const tok of tokenizers) assert.equal(sharedCounts(tok).size, distinct.size);
  },
);

Deno.test(
  "ReindentedCounts on the TOON text of every reference tool, as TOON lists it",
  FULL_TIER_ONLY,
  async () => {
    const corpus = await loadCatalog(REFERENCE.pathname);
    const whole = TOKENIZER_NAMES.map((n) => createTokenizer(n, "gpt-tokenizer"));
    const counters = TOKENIZER_NAMES.map((n) =>
      new ReindentedCounts(createTokenizer(n), "\n  - ", "    ")
    );
    for (const tool of corpus.tools) {
      const out = toonListing.encodeTool(tool);
      if (!out.ok) continue;
      for (const [i, tok] of whole.entries()) {
        assert.equal(
          counters[i].count(out.text, tok.count(out.text)),
          tok.count("\n  - " + out.text.replaceAll("\n", "\n    ")),
          tool.id,
        );
      }
    }
  },
);
