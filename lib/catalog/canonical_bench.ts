import { fileURLToPath } from "node:url";
import { canonicalJson, jsonNodeCanonical, parseJsonLossless } from "./canonical.ts";
import { parseCatalog } from "./parse.ts";

const PATH = fileURLToPath(
  new URL("../../../shared/corpora/livemcptool/tools.json", import.meta.url),
);
let text = "";
try {
  text = Deno.readTextFileSync(PATH);
} catch {
  console.warn(`skipping catalog benches: ${PATH} is absent`);
}
const ignore = text === "";

Deno.bench({
  name: "JSON.parse (LiveMCPBench file)",
  group: "parse",
  baseline: true,
  ignore,
  fn: () => void JSON.parse(text),
});
Deno.bench({
  name: "parseJsonLossless (LiveMCPBench file)",
  group: "parse",
  ignore,
  fn: () => void parseJsonLossless(text),
});

Deno.bench({
  name: "canonicalJson of the parsed value",
  group: "canonical",
  baseline: true,
  ignore,
  fn: () => void canonicalJson(JSON.parse(text)),
});
Deno.bench({
  name: "jsonNodeCanonical of the lossless tree",
  group: "canonical",
  ignore,
  fn: () => void jsonNodeCanonical(parseJsonLossless(text)),
});

Deno.bench({
  name: "parseCatalog (527 tools)",
  ignore,
  fn: () => void parseCatalog(text, { path: PATH }),
});
