// test:quick skips this file: its tests start processes (deno task test runs them).
// The tables of docs/extension-points.md and the JSON-Schema enums that list a registry's names
// are checked against the registry here. After adding a retriever, an arm or a provider,
// regenerate them with
//   UPDATE_REGISTRIES=1 deno test -A lib/registries_test.ts
// then review the diff.
import assert from "node:assert/strict";
import { readmeTable } from "../testing/readme_table.ts";
import { RETRIEVERS } from "./retrieval/mod.ts";
import { ARMS } from "./encodings/mod.ts";
import { PROVIDER_ENTRIES, PROVIDER_NAMES } from "./agent/mod.ts";

const TABLES_DOC = new URL("../docs/extension-points.md", import.meta.url);
const MODELS_SCHEMA = new URL("./agent/schemas/models.schema.json", import.meta.url);
const UPDATE = Deno.env.get("UPDATE_REGISTRIES") === "1";

const code = (s: string) => `\`${s}\``;

/** Each table of docs/extension-points.md: its marker, header and rows from the registry. */
const TABLES: readonly { name: string; header: string[]; rows: string[][] }[] = [
  {
    name: "retrievers",
    header: ["retriever", "reads", "what it is"],
    rows: RETRIEVERS.map((r) => [
      code(r.name),
      r.reads.length === 0 ? "none" : r.reads.join(", "),
      r.summary,
    ]),
  },
  {
    name: "arms",
    header: ["arm", "alters index", "savings", "what it renders"],
    rows: ARMS.map((a) => [
      code(a.name),
      a.altersIndex ? "yes" : "no",
      a.lowerBound ? "lower bound" : "exact",
      a.summary,
    ]),
  },
  {
    name: "providers",
    header: ["provider", "wire format", "schema dialect", "API key", "what it is"],
    rows: PROVIDER_ENTRIES.map((p) => [
      code(p.name),
      code(p.wire),
      code(p.schemaDialect),
      code(p.apiKeyEnv),
      p.summary,
    ]),
  },
];

function render(header: readonly string[], rows: readonly string[][]): string {
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

if (UPDATE) {
  let text = await Deno.readTextFile(TABLES_DOC);
  for (const t of TABLES) {
    const open = `<!-- registry:${t.name} -->`;
    const close = `<!-- /registry:${t.name} -->`;
    const start = text.indexOf(open);
    const end = text.indexOf(close);
    if (start === -1 || end === -1) {
      throw new Error(`docs/extension-points.md lacks ${open} ... ${close}`);
    }
    text = `${text.slice(0, start + open.length)}\n\n${render(t.header, t.rows)}\n\n${
      text.slice(end)
    }`;
  }
  await Deno.writeTextFile(TABLES_DOC, text);
  await new Deno.Command(Deno.execPath(), { args: ["fmt", TABLES_DOC.pathname] }).output();
  // Only the enum changes; the rest of the file keeps its hand layout.
  const schema = await Deno.readTextFile(MODELS_SCHEMA);
  await Deno.writeTextFile(
    MODELS_SCHEMA,
    schema.replace(
      /("provider": \{ "enum": )\[[^\]]*\]/,
      `$1${JSON.stringify(PROVIDER_NAMES).replaceAll(",", ", ")}`,
    ),
  );
}

for (const t of TABLES) {
  Deno.test(`docs/extension-points.md's ${t.name} table lists the registry`, async () => {
    const rows = readmeTable(await Deno.readTextFile(TABLES_DOC), t.name);
    assert.deepEqual(
      rows.map((r) => r.map((c) => c.replaceAll("\\|", "|"))),
      t.rows,
      "regenerate with UPDATE_REGISTRIES=1 deno test -A lib/registries_test.ts",
    );
  });
}

Deno.test("the model registry schema accepts exactly the registered providers", async () => {
  const schema = JSON.parse(await Deno.readTextFile(MODELS_SCHEMA));
  assert.deepEqual(
    schema.properties.models.items.properties.provider.enum,
    PROVIDER_NAMES,
    "regenerate with UPDATE_REGISTRIES=1 deno test -A lib/registries_test.ts",
  );
});
