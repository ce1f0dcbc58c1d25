// deno task live: what discovery responses really cost over MCP (lib/flows/live.ts), written
// to results/live.json.
import {
  LIVE_DEFAULTS,
  liveFailure,
  parsePairs,
  runLive,
  SMALL_LIVE_SET,
  typedPairs,
  writeLiveRecord,
} from "../lib/flows/mod.ts";
import { isTokenizerName, TOKENIZER_NAMES } from "../lib/tokens/mod.ts";
import {
  createdAt,
  fromRoot,
  helpText,
  intFlag,
  IO,
  listFlag,
  parseFlags,
  progress,
  runMain,
  UsageError,
} from "./_cli.ts";

const HELP = helpText({
  usage: "live [options]",
  purpose: "What discovery responses cost over MCP: tokens per response, latency, break-even.",
  about:
    `By default boots mcpmeter's reference discovery proxy over the reference servers installed by
'deno task capture' (.scratch/servers), or, when none is, over a small set installed on first use
(${SMALL_LIVE_SET.join(", ")}), and asks every golden query whose best tool is live.
--endpoint measures your own gateway instead.`,
  options: `  --golden FILE       Golden set, mcpproxy format (default: ${LIVE_DEFAULTS.golden})
  --tokenizer NAME    ${TOKENIZER_NAMES.join(" or ")} (default: ${LIVE_DEFAULTS.tokenizer})
  --servers FILE      Servers config for the reference proxy (default: ${LIVE_DEFAULTS.servers})
  --only LIST         Comma-separated server names of the config to boot
  --install-dir DIR   Installed packages (default: ${LIVE_DEFAULTS.installDir})
  --limit N           limit sent to retrieve_tools (default: ${LIVE_DEFAULTS.limit})
  --timeout-ms N      Per call and per upstream start, ms (default: ${LIVE_DEFAULTS.timeoutMs})
  --endpoint URL      Measure this streamable HTTP MCP server instead
  --header K:V        Request header for --endpoint (repeatable), e.g. "Authorization: Bearer x"
  --discovery-tool NAME  Discovery tool of the endpoint (default: retrieve_tools;
                      --tool NAME is the same)
  --query-arg NAME    Argument carrying the query (default: query)
  --arg K=V           Fixed extra argument of every call (repeatable; numbers and true/false parsed)
  --compact-arg K=V   Extra argument of a second, compact call per query: runs the flip gate
  --corpus FILE       Direct catalog of the endpoint's upstreams (for break-even)
  --out DIR           Output folder (default: ${LIVE_DEFAULTS.out}/); writes DIR/live.json`,
  exitCodes: "0 measured, 1 nothing measured (every failure is in live.json) or a crash, " +
    "2 bad input (a flag, a file, a config)",
});

async function main(args: string[]): Promise<number> {
  const parsed = parseFlags(args, {
    golden: { type: "string", path: true },
    tokenizer: { type: "string" },
    servers: { type: "string", path: true },
    only: { type: "string" },
    "install-dir": { type: "string", path: true },
    limit: { type: "string" },
    "timeout-ms": { type: "string" },
    endpoint: { type: "string" },
    header: { type: "string", multiple: true },
    tool: { type: "string" },
    "discovery-tool": { type: "string" },
    "query-arg": { type: "string" },
    arg: { type: "string", multiple: true },
    "compact-arg": { type: "string", multiple: true },
    corpus: { type: "string", path: true },
    out: { type: "string", path: true },
    help: { type: "boolean", short: "h", default: false },
  });
  const v = parsed.values;
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  const tokenizer = v.tokenizer ?? LIVE_DEFAULTS.tokenizer;
  if (!isTokenizerName(tokenizer)) {
    throw new UsageError(
      `--tokenizer must be one of ${TOKENIZER_NAMES.join(", ")}, got ${JSON.stringify(tokenizer)}`,
    );
  }
  if (v.endpoint !== undefined) {
    try {
      new URL(v.endpoint);
    } catch {
      throw new UsageError(`--endpoint must be a URL, got ${JSON.stringify(v.endpoint)}`);
    }
  }
  const limit = intFlag("limit", v.limit, LIVE_DEFAULTS.limit, 1);
  const timeoutMs = intFlag("timeout-ms", v["timeout-ms"], LIVE_DEFAULTS.timeoutMs, 1);
  const compact = typedPairs(parsePairs(v["compact-arg"], "=", "compact-arg"));
  const extra = typedPairs(parsePairs(v.arg, "=", "arg"));
  const started = createdAt();
  const block = await runLive({
    ...(v.golden === undefined ? {} : { golden: v.golden }),
    tokenizer,
    limit,
    timeoutMs,
    ...(v.servers === undefined ? {} : { servers: v.servers }),
    ...(v.only === undefined ? {} : { serverNames: listFlag("only", v.only) }),
    ...(v["install-dir"] === undefined ? {} : { installDir: v["install-dir"] }),
    ...(v.endpoint === undefined ? {} : { endpoint: v.endpoint }),
    ...(v.header === undefined ? {} : { headers: parsePairs(v.header, ":", "header") }),
    ...((v["discovery-tool"] ?? v.tool) === undefined
      ? {}
      : { tool: (v["discovery-tool"] ?? v.tool)! }),
    ...(v["query-arg"] === undefined ? {} : { queryArg: v["query-arg"] }),
    ...(v.arg === undefined ? {} : { extraArgs: extra }),
    ...(v["compact-arg"] === undefined ? {} : { compactArgs: compact }),
    ...(v.corpus === undefined ? {} : { corpus: v.corpus }),
    onProgress: (m) => progress("live", m),
  }, IO);
  const out = v.out ?? fromRoot(LIVE_DEFAULTS.out);
  const headerNames = Object.keys(parsePairs(v.header, ":", "header"));
  const path = await writeLiveRecord(block, { outDir: out, createdAt: started, headerNames }, IO);
  const q = block.queries;
  progress(
    "live",
    `wrote ${path}: ${q.used}/${q.total} queries used, ${q.failed} failed; ` +
      `response p50 ${block.responseCost.p50 ?? "-"} tokens, latency p50 ${
        block.latencyMs?.p50 ?? "-"
      } ms`,
  );
  const failure = liveFailure(block);
  if (failure !== null) throw new Error(`${failure}; ${path} keeps every failure row`);
  return 0;
}

if (import.meta.main) await runMain("live", () => main(Deno.args));
