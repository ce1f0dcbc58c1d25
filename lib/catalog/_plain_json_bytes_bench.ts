// The catalog loader's two fast paths on the reference corpus (1,389 tools): the file's bytes
// parsed piece by piece (parseJsonPlainBytes, what loadCatalog does) against its text decoded
// and parsed whole (parseJsonPlain), each followed by the corpus build. Memory, the reason for
// the piece path, is not what Deno.bench shows: see the commit that added it for peak RSS.
import { parseJsonPlain } from "./_plain_json.ts";
import { parseJsonPlainBytes } from "./_plain_json_bytes.ts";
import { parseCatalog, parseCatalogValue } from "./parse.ts";

const PATH = new URL("../../fixtures/corpora/reference_v1.tools.json", import.meta.url);
const bytes = Deno.readFileSync(PATH);
const decode = () => new TextDecoder("utf-8", { fatal: true }).decode(bytes);

Deno.bench({
  name: "decode + parseJsonPlain (whole text)",
  group: "value",
  baseline: true,
  fn: () => void parseJsonPlain(decode()),
});
Deno.bench({
  name: "parseJsonPlainBytes (pieces of the bytes)",
  group: "value",
  fn: () => void parseJsonPlainBytes(bytes),
});

Deno.bench({
  name: "decode + parseCatalog",
  group: "corpus",
  baseline: true,
  fn: () => void parseCatalog(decode(), { path: "reference_v1.tools.json" }),
});
Deno.bench({
  name: "parseJsonPlainBytes + parseCatalogValue",
  group: "corpus",
  fn: () =>
    void parseCatalogValue(parseJsonPlainBytes(bytes)!, { path: "reference_v1.tools.json" }),
});
