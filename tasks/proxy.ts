// deno task proxy: run mcpmeter's reference discovery proxy (retrieve_tools,
// describe_tool, call_tool) over the servers of an mcpServers config, on
// stdio or streamable HTTP.
import { RETRIEVER_NAMES, retrieverEntry } from "../lib/retrieval/mod.ts";
import { BENCH_DEFAULTS, PROXY_DEFAULTS, runProxy } from "../lib/flows/mod.ts";
import { helpText, intFlag, IO, parseFlags, runMain, UsageError } from "./_cli.ts";
import { RETRIEVER_MODEL_FLAGS, retrieverModelOptions } from "./_retriever_flags.ts";

const HELP = helpText({
  usage: "proxy --servers CONFIG [options]",
  purpose: "mcpmeter's reference MCP discovery proxy, over stdio or streamable HTTP.",
  about: `Serves three tools (definitions: fixtures/proxies/reference_proxy.tools.json):
  retrieve_tools(query, limit=10, detail="full"|"compact")  BM25 over every upstream tool
  describe_tool(tool_ids)                                   full definitions
  call_tool(name, arguments)                                forwards to the upstream, result unchanged`,
  options:
    `  --servers FILE     Servers config in the mcpServers shape (Claude Desktop, Cursor, VS Code);
                     \${VAR} is expanded from the environment. Required.
  --http PORT        Serve streamable HTTP on PORT (0 = any free port) at /mcp instead of stdio
  --host ADDR        Interface to bind with --http (default 127.0.0.1). Any other address
                     needs a token (16+ characters, 6+ of them different, no whitespace).
  --token TOKEN      Require "Authorization: Bearer TOKEN" on HTTP requests
                     (default: \$MCPMETER_PROXY_TOKEN when set, else no token). Prefer the
                     variable: a flag is visible to other users in the process list.
  --allow-host HOST  Also accept this Host header (name = any port, name:port = that port),
                     e.g. a reverse proxy's name; repeatable. Default: the bound address and
                     port, plus 127.0.0.1, localhost and [::1] with that port on loopback.
  --allow-origin URL Also accept this browser Origin (e.g. https://notebook.example);
                     repeatable. Requests without an Origin (non-browser clients) are not affected.
  --install-dir DIR  Folder of pinned packages for \${BIN} (default: ${PROXY_DEFAULTS.installDir})
  --timeout-ms N     Start-up timeout per upstream and per forwarded call, ms (default 30000)
  --max-result-bytes N  Cap of one forwarded call_tool result, bytes of JSON (default
                     ${PROXY_DEFAULTS.maxResultBytes}); a bigger one is cut and ends with a
                     "[mcpmeter proxy: result cut to N bytes; ...]" marker
  --retriever NAME   Ranking behind retrieve_tools: ${
      RETRIEVER_NAMES.filter((n) => !retrieverEntry(n).needsGolden).join(", ")
    }
                     (default: bm25), as scored by deno task bench
  --embedding-model ID  Model-registry entry (kind "embedding") of --retriever dense or hybrid;
                     the index is embedded on the first retrieve_tools call, each query before
                     it is searched
  --rerank-model ID  Chat model of --retriever rerank: reorders the top --rerank-k N (default
                     20) of --rerank-base NAME (default bm25) for each query
  --expand-model ID  Chat model of --retriever expand: writes user requests for every tool on
                     the first retrieve_tools call (answers cached)
  --models FILE      Model registry (default: ${BENCH_DEFAULTS.models})
  --embedding-cache DIR  Vector cache (default: ${BENCH_DEFAULTS.embeddingCache})
  --chat-cache DIR   Answers of the rerank and expand models (default: ${BENCH_DEFAULTS.chatCache})
  --model-timeout SECONDS
                     Wait for one answer of the retriever's model before it is a timeout:
                     retried once, then the model is down (default: 60 embeddings, 120 chat)`,
  exitCodes:
    "0 stopped cleanly (Ctrl-C, end of stdin), 1 no upstream started or a crash, 2 bad input (a flag, the " +
    "servers config, an off-loopback bind without a token)",
  notes: `npx/pnpm dlx/bunx entries are pinned and installed first, as deno task capture does.
Upstreams that fail to start are reported on stderr and left out; the proxy serves the rest,
and exits 1 when none started.
Every HTTP request, initialize included, is refused with 403 when its Host is not this server
or its Origin is not allowed, and with 401 when the token is missing or wrong (docs/security.md).
Example: deno task proxy --servers fixtures/servers/reference.json --http 8931`,
});

async function main(args: string[]): Promise<number> {
  const { values: v } = parseFlags(args, {
    servers: { type: "string", path: true },
    http: { type: "string" },
    host: { type: "string" },
    token: { type: "string" },
    "allow-host": { type: "string", multiple: true },
    "allow-origin": { type: "string", multiple: true },
    "install-dir": { type: "string", path: true },
    "timeout-ms": { type: "string" },
    "max-result-bytes": { type: "string" },
    retriever: { type: "string" },
    ...RETRIEVER_MODEL_FLAGS,
    help: { type: "boolean", short: "h", default: false },
  });
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  if (v.servers === undefined) throw new UsageError("--servers FILE is required (see --help)");
  // The token variable counts only where a token is used: on HTTP.
  const token = v.token ??
    (v.http === undefined ? undefined : Deno.env.get("MCPMETER_PROXY_TOKEN"));
  const stop = Promise.withResolvers<void>();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => stop.resolve());
  }
  await runProxy({
    servers: v.servers,
    ...(v.http === undefined ? {} : { port: intFlag("http", v.http, 0) }),
    ...(v.host === undefined ? {} : { hostname: v.host }),
    ...(token === undefined || token === "" ? {} : { token }),
    ...(v["allow-host"] ? { allowedHosts: v["allow-host"] } : {}),
    ...(v["allow-origin"] ? { allowedOrigins: v["allow-origin"] } : {}),
    ...(v["install-dir"] === undefined ? {} : { installDir: v["install-dir"] }),
    timeoutMs: intFlag("timeout-ms", v["timeout-ms"], PROXY_DEFAULTS.timeoutMs, 1),
    maxResultBytes: intFlag(
      "max-result-bytes",
      v["max-result-bytes"],
      PROXY_DEFAULTS.maxResultBytes,
      1_024,
    ),
    ...(v.retriever === undefined ? {} : { retriever: v.retriever }),
    ...retrieverModelOptions(v, 20),
    env: Deno.env.toObject(),
    stop: stop.promise,
  }, IO);
  return 0;
}

if (import.meta.main) await runMain("proxy", () => main(Deno.args));
