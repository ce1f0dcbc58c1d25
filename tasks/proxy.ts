// deno task proxy: run mcpmeter's reference discovery proxy (retrieve_tools,
// describe_tool, call_tool) over the servers of an mcpServers config, on
// stdio or streamable HTTP.
import { RETRIEVER_NAMES, retrieverEntry } from "../lib/retrieval/mod.ts";
import { BENCH_DEFAULTS, resolveEmbeddingModel } from "../lib/flows/mod.ts";
import { fromRoot, intFlag, parseFlags, progress, runMain, UsageError } from "./_cli.ts";
import { parseServersConfig } from "../lib/mcp/mod.ts";
import {
  checkBindAddress,
  connectUpstreams,
  createHttpGuard,
  serveProxyHttp,
  serveProxyStdio,
} from "../lib/proxy/io.ts";
import {
  createProxyCore,
  DEFAULT_MAX_RESULT_BYTES,
  proxyRetriever,
  redactText,
  upstreamSecrets,
} from "../lib/proxy/mod.ts";

/** Default install folder of pinned server packages (the one `deno task capture` fills). */
export const DEFAULT_INSTALL_DIR = ".scratch/servers";

const HELP = `mcpmeter proxy — reference MCP discovery proxy

Usage: deno task proxy --servers CONFIG [options]

Serves three tools (definitions: fixtures/proxies/reference_proxy.tools.json):
  retrieve_tools(query, limit=10, detail="full"|"compact")  BM25 over every upstream tool
  describe_tool(tool_ids)                                   full definitions
  call_tool(name, arguments)                                forwards to the upstream, result unchanged

Options:
  --servers FILE     Servers config in the mcpServers shape (Claude Desktop, Cursor, VS Code);
                     \${VAR} is expanded from the environment. Required.
  --http PORT        Serve streamable HTTP on PORT (0 = any free port) at /mcp instead of stdio
  --host ADDR        Interface to bind with --http (default 127.0.0.1). Any other address
                     needs a token.
  --token TOKEN      Require "Authorization: Bearer TOKEN" on HTTP requests
                     (default: \$MCPMETER_PROXY_TOKEN when set, else no token). Prefer the
                     variable: a flag is visible to other users in the process list.
  --allow-host HOST  Also accept this Host header (name = any port, name:port = that port),
                     e.g. a reverse proxy's name; repeatable. Default: the bound address and
                     port, plus 127.0.0.1, localhost and [::1] with that port on loopback.
  --allow-origin URL Also accept this browser Origin (e.g. https://notebook.example);
                     repeatable. Requests without an Origin (non-browser clients) are not affected.
  --install-dir DIR  Folder of pinned packages for \${BIN} (default: ${DEFAULT_INSTALL_DIR})
  --timeout-ms N     Start-up timeout per upstream and per forwarded call, ms (default 30000)
  --max-result-bytes N  Cap of one forwarded call_tool result, bytes of JSON (default
                     ${DEFAULT_MAX_RESULT_BYTES}); a bigger one is cut and ends with a
                     "[mcpmeter proxy: result cut to N bytes; ...]" marker
  --retriever NAME   Ranking behind retrieve_tools: ${
  RETRIEVER_NAMES.filter((n) => !retrieverEntry(n).needsGolden).join(", ")
}
                     (default: bm25), as scored by deno task bench
  --embedding-model ID  Model-registry entry (kind "embedding") of --retriever dense or hybrid;
                     the index is embedded on the first retrieve_tools call, each query before
                     it is searched
  --models FILE      Model registry (default: ${BENCH_DEFAULTS.models})
  --embedding-cache DIR  Vector cache (default: ${BENCH_DEFAULTS.embeddingCache})
  -h, --help         Show this help

Upstreams that fail to start are reported on stderr and left out; the proxy serves the rest.
Every HTTP request, initialize included, is refused with 403 when its Host is not this server
or its Origin is not allowed, and with 401 when the token is missing or wrong (docs/security.md).
Example: deno task proxy --servers fixtures/servers/reference.json --http 8931
`;

async function main(args: string[]): Promise<number> {
  const parsed = parseFlags(args, {
    servers: { type: "string" },
    http: { type: "string" },
    host: { type: "string" },
    token: { type: "string" },
    "allow-host": { type: "string", multiple: true },
    "allow-origin": { type: "string", multiple: true },
    "install-dir": { type: "string" },
    "timeout-ms": { type: "string" },
    "max-result-bytes": { type: "string" },
    retriever: { type: "string" },
    "embedding-model": { type: "string" },
    models: { type: "string" },
    "embedding-cache": { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  const v = parsed.values;
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  if (v.servers === undefined) throw new UsageError("--servers FILE is required (see --help)");
  if (
    v.http === undefined &&
    (v.host !== undefined || v.token !== undefined || v["allow-host"] !== undefined ||
      v["allow-origin"] !== undefined)
  ) {
    throw new UsageError("--host, --token, --allow-host and --allow-origin apply to --http only");
  }
  // Check every flag before starting any upstream.
  const port = v.http === undefined ? undefined : intFlag("http", v.http, 0);
  if (port !== undefined && port > 65535) {
    throw new UsageError(`--http must be a port number (0-65535): current value is ${port}`);
  }
  const timeoutMs = intFlag("timeout-ms", v["timeout-ms"], 30_000);
  if (timeoutMs === 0) throw new UsageError("--timeout-ms must be positive");
  const maxResultBytes = intFlag(
    "max-result-bytes",
    v["max-result-bytes"],
    DEFAULT_MAX_RESULT_BYTES,
  );
  if (maxResultBytes < 1_024) throw new UsageError("--max-result-bytes must be at least 1024");
  const hostname = v.host ?? "127.0.0.1";
  const tokenFlag = v.token ?? Deno.env.get("MCPMETER_PROXY_TOKEN");
  const token = tokenFlag === "" ? undefined : tokenFlag;
  const allowedHosts = v["allow-host"] ?? [];
  const allowedOrigins = v["allow-origin"] ?? [];
  if (port !== undefined) {
    try {
      checkBindAddress(hostname, token, "--token or $MCPMETER_PROXY_TOKEN");
      createHttpGuard({ hostname, port, allowedHosts, allowedOrigins });
    } catch (error) {
      if (error instanceof RangeError) throw new UsageError(error.message);
      throw error;
    }
  }
  const retrieverName = v.retriever ?? "bm25";
  if (!RETRIEVER_NAMES.includes(retrieverName)) {
    throw new UsageError(
      `--retriever: unknown retriever "${retrieverName}" (known: ${RETRIEVER_NAMES.join(", ")})`,
    );
  }
  const entry = retrieverEntry(retrieverName);
  if (entry.needsGolden) {
    throw new UsageError(`--retriever ${retrieverName} needs golden labels; the proxy has none`);
  }
  if ((entry.endpoint === "embedding") !== (v["embedding-model"] !== undefined)) {
    throw new UsageError(
      entry.endpoint === "embedding"
        ? `--retriever ${retrieverName} needs --embedding-model ID (a model-registry entry with kind "embedding")`
        : "--embedding-model is used by --retriever dense or hybrid only",
    );
  }
  const embedding = v["embedding-model"] === undefined ? undefined : await resolveEmbeddingModel({
    id: v["embedding-model"],
    modelsPath: v.models ?? fromRoot(BENCH_DEFAULTS.models),
    cacheDir: v["embedding-cache"] ?? fromRoot(BENCH_DEFAULTS.embeddingCache),
    env: Deno.env.toObject(),
    dotEnv: fromRoot(".env"),
  });
  const retriever = proxyRetriever(retrieverName, {
    seed: 0,
    ...(embedding
      ? {
        settings: embedding.settings,
        fetch: embedding.fetch,
        embeddingStore: embedding.embeddingStore,
      }
      : {}),
  });
  let text: string;
  try {
    text = await Deno.readTextFile(v.servers);
  } catch (error) {
    throw new UsageError(`Cannot read --servers "${v.servers}": ${(error as Error).message}`);
  }
  const config = parseServersConfig(text, { source: v.servers });
  const env = Deno.env.toObject();
  // Never echoed: not in answers, not in progress lines.
  const secrets = [...upstreamSecrets(config, env), ...(token === undefined ? [] : [token])];
  const say = (line: string) => progress("proxy", redactText(line, secrets));
  const pool = await connectUpstreams(config, {
    env,
    installDir: v["install-dir"] ?? fromRoot(DEFAULT_INSTALL_DIR),
    timeoutMs,
    source: v.servers,
    onProgress: (server, outcome, message) =>
      say(`${server}: ${outcome}${message === undefined ? "" : ` (${message})`}`),
  });
  const ready = pool.statuses().filter((s) => s.state === "ready").length;
  say(`${ready}/${config.servers.length} upstreams ready, ${pool.tools.length} tools`);
  for (const w of pool.warnings.slice(0, 20)) say(`warning: ${w}`);
  const core = createProxyCore(pool, { secrets, maxResultBytes, retriever });
  const stop = Promise.withResolvers<void>();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => stop.resolve());
  }
  if (port !== undefined) {
    const http = serveProxyHttp(core, {
      port,
      hostname,
      allowedHosts,
      allowedOrigins,
      ...(token === undefined ? {} : { token }),
      onRefusal: (status, reason) => say(`refused (${status}): ${reason}`),
    });
    say(`listening on ${http.url}${token ? " (bearer token required)" : ""}`);
    await stop.promise;
    await http.shutdown();
  } else {
    const session = await serveProxyStdio(core);
    say("serving MCP on stdio");
    await Promise.race([session.closed, stop.promise]);
    await session.close();
  }
  await pool.close();
  return 0;
}

if (import.meta.main) await runMain("proxy", () => main(Deno.args));
