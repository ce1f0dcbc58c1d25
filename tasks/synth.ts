// deno task synth: a synthetic tool catalog of any size, drawn from the reference corpus,
// written as an mcpmeter capture that `deno task bench --corpus` reads.
import { dirname } from "node:path";
import { planSynthCatalog, synthCatalogHeader, synthServers } from "../lib/catalog/mod.ts";
import { loadCatalog } from "../lib/catalog/io.ts";
import {
  displayPath,
  ensureWritable,
  fromRoot,
  intFlag,
  parseFlags,
  progress,
  runMain,
  UsageError,
} from "./_cli.ts";

const DEFAULT_REFERENCE = "fixtures/corpora/reference_v1.tools.json";
const DEFAULT_SEED = 1;

const HELP = `mcpmeter synth — a synthetic tool catalog drawn from a reference corpus

Usage: deno task synth --tools N [--seed S] [--out FILE] [options]

Starts with the reference servers verbatim (so the reference golden set still finds its
tools), then adds seeded rewrites of randomly drawn reference servers (same tool, name,
description and schema shapes; words replaced by same-length reference words) until the
catalog has exactly N tools. Same reference, N and seed: the same bytes.

Options:
  --tools N          Number of tools (required, positive)
  --seed S           Seed of every random choice (default ${DEFAULT_SEED})
  --out FILE         Output file (default results/synth/synth_N_sS.tools.json)
  --reference FILE   Reference corpus (default ${DEFAULT_REFERENCE})
  --no-reference     Synthetic servers only (the reference servers are not included)
  --help             This text

Example: deno task synth --tools 40000 --seed 7 && \\
  deno task bench --corpus results/synth/synth_40000_s7.tools.json \\
  --golden fixtures/golden/reference_v1.test.json`;

/** The object with its top-level keys in sorted order. */
function sortTop(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, value[k]]));
}

async function main(): Promise<number> {
  const { values } = parseFlags(Deno.args, {
    tools: { type: "string" },
    seed: { type: "string" },
    out: { type: "string" },
    reference: { type: "string" },
    "no-reference": { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.tools === undefined) throw new UsageError("--tools N is required (see --help)");
  const tools = intFlag("tools", values.tools, 0, 1);
  const seed = intFlag("seed", values.seed, DEFAULT_SEED);
  const referencePath = values.reference ?? fromRoot(DEFAULT_REFERENCE);
  const out = values.out ?? fromRoot(`results/synth/synth_${tools}_s${seed}.tools.json`);
  await Deno.mkdir(dirname(out), { recursive: true });
  await ensureWritable(out, "--out");
  const reference = await loadCatalog(referencePath);
  const options = { tools, seed, includeReference: !values["no-reference"] };
  const plan = planSynthCatalog(reference, options);
  const header = synthCatalogHeader(reference, options, plan.serverCount);
  progress("synth", `${tools} tools in ${plan.serverCount} servers from ${reference.id}`);

  // Stream compact JSON: header keys before "servers" (sorted order), each server, then the
  // rest. Every object is built in a fixed key order, so the bytes are deterministic.
  const started = performance.now();
  const tmp = `${out}.partial`;
  const file = await Deno.open(tmp, { write: true, create: true, truncate: true });
  const writer = file.writable.getWriter();
  const enc = new TextEncoder();
  const headerJson = JSON.stringify(sortTop({ ...header, servers: [] }));
  const cut = headerJson.indexOf('"servers":[]');
  await writer.write(enc.encode(headerJson.slice(0, cut) + '"servers":['));
  let done = 0;
  let first = true;
  for (const server of synthServers(reference, options)) {
    await writer.write(enc.encode((first ? "" : ",") + JSON.stringify(server)));
    first = false;
    done += server.toolCount;
    if (done % 10000 < server.toolCount) progress("synth", `${done}/${tools} tools`);
  }
  await writer.write(enc.encode("]" + headerJson.slice(cut + '"servers":[]'.length) + "\n"));
  await writer.close();
  await Deno.rename(tmp, out);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `wrote ${
      displayPath(out)
    }: ${tools} tools, ${plan.serverCount} servers, seed ${seed} in ${seconds} s`,
  );
  return 0;
}

if (import.meta.main) await runMain("synth", main);
