// deno task live: what discovery responses really cost over MCP. Boots the
// reference proxy over live reference servers (or measures an external
// endpoint), asks every usable golden query over streamable HTTP, and writes
// the report's `live` block to results/live.json.
import { redactDeep, urlSecrets } from "../lib/_redact.ts";
import { loadCatalog } from "../lib/catalog/load.ts";
import type { JsonObject, Tool } from "../lib/catalog/types.ts";
import { buildLiveBlock, type LiveBlock, type QueryCalls } from "../lib/live/live_block.ts";
import { restrictGolden } from "../lib/live/golden_filter.ts";
import { openDiscoverySession } from "../lib/live/measure.ts";
import { parseServersConfig, type ServersConfig } from "../lib/mcp/config.ts";
import { installPackages, readInstalledPackage } from "../lib/mcp/install.ts";
import { connectUpstreams } from "../lib/proxy/connect.ts";
import { serveProxyHttp } from "../lib/proxy/http.ts";
import { createProxyCore } from "../lib/proxy/server.ts";
import { toolFromListing } from "../lib/proxy/tool_index.ts";
import type { ProxyRetrieverFactory } from "../lib/proxy/tool_index.ts";
import { stableJson } from "../lib/report/json.ts";
import { loadGolden } from "../lib/retrieval/load_golden.ts";
import { isTokenizerName, TOKENIZER_NAMES } from "../lib/tokens/tokenizers.ts";
import type { TokenizerName } from "../lib/tokens/types.ts";
import {
  createdAt,
  dependencyVersions,
  fromRoot,
  gitState,
  intFlag,
  parseFlags,
  progress,
  runMain,
  UsageError,
} from "./_cli.ts";

/** Defaults, relative to the repository root. */
export const LIVE_DEFAULTS = {
  golden: "fixtures/golden/reference_v1.test.json",
  servers: "fixtures/servers/reference.json",
  installDir: ".scratch/servers",
  cacheDir: ".scratch/live/servers",
  out: "results",
  tokenizer: "cl100k_base" as TokenizerName,
  limit: 10,
  timeoutMs: 30_000,
} as const;

/**
 * Servers of the reference config booted when none of its packages is
 * installed: quick to install, and they start offline.
 */
export const SMALL_LIVE_SET: readonly string[] = [
  "everything",
  "fetch",
  "filesystem",
  "git",
  "memory",
  "sequential-thinking",
];

/** Options of {@linkcode runLive}; paths are absolute or relative to the working directory. */
export interface RunLiveOptions {
  /** Golden set (mcpproxy format). Default: the reference test set. */
  readonly golden?: string;
  /** Encoding of every count. Default `cl100k_base`. */
  readonly tokenizer?: TokenizerName;
  /** `limit` sent with every discovery call (reference proxy). Default 10. */
  readonly limit?: number;
  /** Timeout per call and per upstream start (ms). Default 30,000. */
  readonly timeoutMs?: number;
  /** Servers config for the reference proxy. Default: fixtures/servers/reference.json. */
  readonly servers?: string;
  /**
   * Which servers of the config to boot. Default: every server whose pinned
   * package is installed in `installDir`; when none is, {@linkcode SMALL_LIVE_SET}
   * installed on first use into `cacheDir`.
   */
  readonly serverNames?: readonly string[];
  /** Install folder of `deno task capture`. Default `.scratch/servers`. */
  readonly installDir?: string;
  /** Install cache of the small live set. Default `.scratch/live/servers`. */
  readonly cacheDir?: string;
  /** Retriever of the reference proxy (default: lib/retrieval BM25 with its defaults). */
  readonly retriever?: ProxyRetrieverFactory;
  /** External endpoint to measure instead of booting the reference proxy. */
  readonly endpoint?: string;
  /** Request headers for the endpoint. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Discovery tool name. Default `retrieve_tools`. */
  readonly tool?: string;
  /** Query argument name. Default `query`. */
  readonly queryArg?: string;
  /** Fixed extra arguments of every call. Default `{limit}` for the reference proxy, `{}` for an endpoint. */
  readonly extraArgs?: { readonly [key: string]: string | number | boolean };
  /**
   * Extra arguments of the compact call of the flip gate. Default
   * `{detail: "compact"}` for the reference proxy; none (gate skipped) for an endpoint.
   */
  readonly compactArgs?: { readonly [key: string]: string | number | boolean } | null;
  /** Direct catalog of an external endpoint (any format `loadCatalog` reads), for break-even. */
  readonly corpus?: string;
  /** Upstreams started at once. Default 8. */
  readonly concurrency?: number;
  /** Progress lines (stderr in the task). */
  readonly onProgress?: (message: string) => void;
}

function catalogFromListing(raw: readonly JsonObject[], server: string): Tool[] {
  const out: Tool[] = [];
  for (const item of raw) {
    try {
      out.push(toolFromListing(server, item).tool);
    } catch {
      // a nameless tool cannot be counted
    }
  }
  return out;
}

async function pickServers(
  config: ServersConfig,
  options: RunLiveOptions,
  say: (m: string) => void,
): Promise<{ config: ServersConfig; installDir: string }> {
  const installDir = options.installDir ?? fromRoot(LIVE_DEFAULTS.installDir);
  const byName = new Map(config.servers.map((s) => [s.name, s]));
  if (options.serverNames !== undefined) {
    const unknown = options.serverNames.filter((n) => !byName.has(n));
    if (unknown.length > 0) {
      throw new UsageError(
        `Unknown server(s) ${unknown.map((n) => `"${n}"`).join(", ")} in --only`,
      );
    }
  }
  const wanted = options.serverNames ?? config.servers.map((s) => s.name);
  const installed: string[] = [];
  for (const name of wanted) {
    const meta = byName.get(name)!.meta;
    if (meta.package === undefined) {
      installed.push(name);
      continue;
    }
    if (await readInstalledPackage(installDir, meta.package, meta.version ?? "")) {
      installed.push(name);
    }
  }
  if (
    installed.length > 0 &&
    (options.serverNames === undefined || installed.length === wanted.length)
  ) {
    return { config: { ...config, servers: installed.map((n) => byName.get(n)!) }, installDir };
  }
  const small = options.serverNames ?? SMALL_LIVE_SET.filter((n) => byName.has(n));
  const cacheDir = options.cacheDir ?? fromRoot(LIVE_DEFAULTS.cacheDir);
  const specs = small.flatMap((n) => {
    const m = byName.get(n)!.meta;
    return m.package === undefined || m.version === undefined
      ? []
      : [{ package: m.package, version: m.version, scripts: m.installScripts ?? false }];
  });
  say(`installing ${specs.length} server package(s) into ${cacheDir}`);
  const results = await installPackages(specs, { installDir: cacheDir, concurrency: 2 });
  for (const r of results.filter((r) => r.status === "failed")) {
    say(`install failed: ${r.package}@${r.version}: ${r.message}`);
  }
  return { config: { ...config, servers: small.map((n) => byName.get(n)!) }, installDir: cacheDir };
}

/**
 * Runs the live measurement and returns the `live` block (see lib/live/live_block.ts).
 *
 * Without `endpoint`: boots the reference proxy over the chosen upstreams,
 * serves it on 127.0.0.1 (streamable HTTP, random port), measures it, and
 * shuts everything down. With `endpoint`: measures that server's discovery
 * tool; the direct menu comes from `corpus` when given.
 *
 * Golden queries whose relevance-2 tool is not in the live catalog are left
 * out (counted, with examples). Faults become per-query failure rows; the run
 * always completes unless nothing can be set up at all.
 *
 * A key in the endpoint URL (its password, or a query parameter with a secret name by
 * lib/_redact.ts: `api_key`, `token`, `secret`, `auth`, `sig`, ...) is `[REDACTED]` everywhere in
 * the block, including fetch error messages that quote the URL.
 *
 * @param options See {@linkcode RunLiveOptions}.
 * @returns The block.
 * @throws {UsageError} On unknown server names or an unreadable golden set or corpus.
 */
export async function runLive(options: RunLiveOptions = {}): Promise<LiveBlock> {
  const say = options.onProgress ?? (() => {});
  const tokenizer = options.tokenizer ?? LIVE_DEFAULTS.tokenizer;
  const limit = options.limit ?? LIVE_DEFAULTS.limit;
  const timeoutMs = options.timeoutMs ?? LIVE_DEFAULTS.timeoutMs;
  const goldenPath = options.golden ?? fromRoot(LIVE_DEFAULTS.golden);
  const golden = await loadGolden(goldenPath, { strict: false });
  const warnings: string[] = [];
  const cleanup: (() => Promise<void>)[] = [];
  try {
    let url: string;
    let catalog: readonly Tool[] | null;
    let directListingMs: number | null = null;
    let servers: LiveBlock["target"]["servers"];
    const reference = options.endpoint === undefined;
    if (reference) {
      const configPath = options.servers ?? fromRoot(LIVE_DEFAULTS.servers);
      const all = parseServersConfig(await Deno.readTextFile(configPath), { source: configPath });
      const { config, installDir } = await pickServers(all, options, say);
      say(`starting ${config.servers.length} upstream server(s)`);
      const pool = await connectUpstreams(config, {
        env: Deno.env.toObject(),
        installDir,
        timeoutMs,
        source: configPath,
        concurrency: options.concurrency ?? 8,
        onProgress: (server, outcome, message) =>
          outcome === "failed" ? say(`${server}: failed (${message})`) : undefined,
      });
      cleanup.push(() => pool.close());
      servers = pool.statuses();
      for (const s of servers.filter((s) => s.state !== "ready")) {
        warnings.push(`upstream "${s.server}" ${s.state}: ${s.message ?? ""}`);
      }
      catalog = pool.tools;
      directListingMs = pool.listingMs;
      const core = createProxyCore(pool, options.retriever ? { retriever: options.retriever } : {});
      const http = serveProxyHttp(core);
      cleanup.unshift(() => http.shutdown());
      url = http.url;
      say(
        `reference proxy on ${url}: ${
          servers.filter((s) => s.state === "ready").length
        } upstreams, ${catalog.length} tools`,
      );
    } else {
      url = options.endpoint!;
      catalog = null;
      if (options.corpus !== undefined) {
        catalog = (await loadCatalog(options.corpus)).tools;
      }
    }

    const extraArgs = options.extraArgs ?? (reference ? { limit } : {});
    const compactArgs = options.compactArgs === undefined
      ? (reference ? { detail: "compact" } : null)
      : options.compactArgs;
    const tool = options.tool ?? "retrieve_tools";
    const queryArg = options.queryArg ?? "query";
    const session = openDiscoverySession({
      url,
      ...(options.headers === undefined ? {} : { headers: options.headers }),
      tool,
      queryArg,
      timeoutMs,
    });
    cleanup.unshift(() => session.close());

    const listing = await session.listTools();
    const proxyMenu = listing.ok ? catalogFromListing(listing.tools, "proxy") : null;
    if (!listing.ok) warnings.push(`tools/list of the endpoint failed: ${listing.message}`);
    if (!reference && catalog === null) {
      warnings.push("no --corpus given: the direct menu is unknown and every golden query is used");
    }
    const used = catalog === null
      ? golden
      : restrictGolden(golden, new Set(catalog.map((t) => t.id)));
    say(
      `${used.queries.size}/${golden.queries.size} golden queries usable (${used.dropped.count} left out)`,
    );

    const calls: QueryCalls[] = [];
    let done = 0;
    for (const [queryId, query] of used.queries) {
      const full = await session.discover(query, { ...extraArgs });
      const compact = compactArgs === null
        ? undefined
        : await session.discover(query, { ...extraArgs, ...compactArgs });
      calls.push({ queryId, query, full, ...(compact === undefined ? {} : { compact }) });
      done++;
      if (done % 25 === 0) say(`${done}/${used.queries.size} queries`);
    }
    const byId = new Map((catalog ?? []).map((t) => [t.id, t]));
    const block = buildLiveBlock({
      tokenizer,
      target: {
        kind: reference ? "reference-proxy" : "endpoint",
        url,
        tool,
        queryArg,
        extraArgs,
        ...(servers === undefined ? {} : { servers }),
      },
      golden: used,
      goldenTotal: golden.queries.size + golden.dropped.count,
      calls,
      proxyMenu,
      directMenu: catalog,
      directListingMs,
      lookup: (id) => byId.get(id),
      warnings,
    });
    return redactDeep(block, urlSecrets(url));
  } finally {
    for (const step of cleanup) await step().catch(() => {});
  }
}

const HELP = `mcpmeter live — what discovery responses cost over MCP

Usage: deno task live [options]

By default boots mcpmeter's reference discovery proxy over the reference servers installed by
'deno task capture' (.scratch/servers), or, when none is, over a small set installed on first use
(${SMALL_LIVE_SET.join(", ")}), and asks every golden query whose best tool is live.

Options:
  --golden FILE       Golden set, mcpproxy format (default: ${LIVE_DEFAULTS.golden})
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
  --out DIR           Output folder (default: ${LIVE_DEFAULTS.out}/); writes DIR/live.json
  -h, --help          Show this help
`;

function parsePairs(
  values: readonly string[] | undefined,
  sep: string,
  flag: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values ?? []) {
    const i = v.indexOf(sep);
    if (i <= 0) throw new UsageError(`--${flag} expects K${sep}V: current value is "${v}"`);
    out[v.slice(0, i).trim()] = v.slice(i + 1).trim();
  }
  return out;
}

function typed(record: Record<string, string>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(record)) {
    out[k] = v === "true"
      ? true
      : v === "false"
      ? false
      : /^-?\d+(\.\d+)?$/.test(v)
      ? Number(v)
      : v;
  }
  return out;
}

async function main(args: string[]): Promise<number> {
  const parsed = parseFlags(args, {
    golden: { type: "string" },
    tokenizer: { type: "string" },
    servers: { type: "string" },
    only: { type: "string" },
    "install-dir": { type: "string" },
    limit: { type: "string" },
    "timeout-ms": { type: "string" },
    endpoint: { type: "string" },
    header: { type: "string", multiple: true },
    tool: { type: "string" },
    "discovery-tool": { type: "string" },
    "query-arg": { type: "string" },
    arg: { type: "string", multiple: true },
    "compact-arg": { type: "string", multiple: true },
    corpus: { type: "string" },
    out: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  const v = parsed.values;
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  const tokenizer = v.tokenizer ?? LIVE_DEFAULTS.tokenizer;
  if (!isTokenizerName(tokenizer)) {
    throw new UsageError(
      `--tokenizer must be one of ${TOKENIZER_NAMES.join(", ")}: current value is "${tokenizer}"`,
    );
  }
  if (v.endpoint !== undefined) {
    try {
      new URL(v.endpoint);
    } catch {
      throw new UsageError(`--endpoint is not a URL: current value is "${v.endpoint}"`);
    }
  }
  const limit = intFlag("limit", v.limit, LIVE_DEFAULTS.limit);
  const timeoutMs = intFlag("timeout-ms", v["timeout-ms"], LIVE_DEFAULTS.timeoutMs);
  if (limit === 0 || timeoutMs === 0) {
    throw new UsageError("--limit and --timeout-ms must be positive");
  }
  const compact = typed(parsePairs(v["compact-arg"], "=", "compact-arg"));
  const extra = typed(parsePairs(v.arg, "=", "arg"));
  const started = createdAt();
  const block = await runLive({
    ...(v.golden === undefined ? {} : { golden: v.golden }),
    tokenizer,
    limit,
    timeoutMs,
    ...(v.servers === undefined ? {} : { servers: v.servers }),
    ...(v.only === undefined
      ? {}
      : { serverNames: v.only.split(",").map((s) => s.trim()).filter(Boolean) }),
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
  });
  const out = v.out ?? fromRoot(LIVE_DEFAULTS.out);
  await Deno.mkdir(out, { recursive: true });
  const record = {
    schemaVersion: 1,
    createdAt: started,
    task: "tasks/live.ts",
    git: await gitState(),
    dependencies: await dependencyVersions(),
    live: {
      ...block,
      // Headers can carry secrets: only their names are recorded.
      target: {
        ...block.target,
        headers: Object.keys(v.header === undefined ? {} : parsePairs(v.header, ":", "header"))
          .sort(),
      },
    },
  };
  await Deno.writeTextFile(`${out}/live.json`, stableJson(record));
  const q = block.queries;
  progress(
    "live",
    `wrote ${out}/live.json: ${q.used}/${q.total} queries used, ${q.failed} failed; ` +
      `response p50 ${block.responseCost.p50 ?? "-"} tokens, latency p50 ${
        block.latencyMs?.p50 ?? "-"
      } ms`,
  );
  if (q.used > 0 && q.failed >= q.used) {
    const first = q.failures[0];
    throw new Error(
      `all ${q.used} discovery calls failed (first: ${first?.outcome}: ${first?.message}); ` +
        `${out}/live.json keeps every failure row`,
    );
  }
  return 0;
}

if (import.meta.main) await runMain("live", () => main(Deno.args));
