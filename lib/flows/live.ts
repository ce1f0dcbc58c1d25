/**
 * The live flow: what discovery responses really cost over MCP. Boots the reference proxy over
 * live reference servers (or measures an external endpoint), asks every usable golden query over
 * streamable HTTP, and returns the report's `live` block.
 *
 * @module
 */
import { redactDeep, urlSecrets } from "../core/secrets.ts";
import { loadCatalog } from "../catalog/load.ts";
import type { JsonObject, Tool } from "../catalog/types.ts";
import { buildLiveBlock, type LiveBlock, type QueryCalls } from "../live/live_block.ts";
import { restrictGolden } from "../live/golden_filter.ts";
import { openDiscoverySession } from "../live/discovery_calls.ts";
import { parseServersConfig, type ServersConfig } from "../mcp/config.ts";
import { installPackages, readInstalledPackage } from "../mcp/install.ts";
import { type ConnectOptions, connectUpstreams } from "../proxy/connect.ts";
import { serveProxyHttp } from "../proxy/http.ts";
import { createProxyCore } from "../proxy/server.ts";
import { type UpstreamPool, withPoolTools } from "../proxy/upstream.ts";
import { applyToolOverrides, type ToolOverrides } from "../catalog/overrides.ts";
import { toolFromListing } from "../proxy/tool_index.ts";
import type { ProxyRetrieverFactory } from "../proxy/tool_index.ts";
import { RESULT_DECIMALS, stableJson } from "../core/json.ts";
import { loadGolden } from "../retrieval/load_golden.ts";
import { createTokenizer } from "../tokens/tokenizers.ts";
import type { Tokenizer, TokenizerName } from "../tokens/types.ts";
import { UsageError } from "../core/errors.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";

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
  /** Tokenizer factory. Default: lib/tokens `createTokenizer`. */
  readonly createTokenizer?: (name: TokenizerName) => Tokenizer;
  /**
   * Tool-description overrides (lib/catalog/overrides.ts): applied to the upstream catalog the
   * reference proxy searches and describes, or, with `endpoint`, to the `corpus` only (an
   * endpoint's own tools cannot be rewritten; a warning says so). Default: none.
   */
  readonly overrides?: ToolOverrides;
  /**
   * Starts the reference proxy's upstreams (the picked servers of the config). Default:
   * lib/proxy `connectUpstreams` (stdio processes, remote HTTP); a test can connect
   * in-process servers instead.
   */
  readonly connectUpstreams?: (
    config: ServersConfig,
    options: ConnectOptions,
  ) => Promise<UpstreamPool>;
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
  fromRoot: (path: string) => string,
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
 * lib/core/secrets.ts: `api_key`, `token`, `secret`, `auth`, `sig`, ...) is `[REDACTED]` everywhere in
 * the block, including fetch error messages that quote the URL.
 *
 * @param options See {@linkcode RunLiveOptions}.
 * @param io Repository root for the defaults, and the environment handed to the upstream
 *   servers. @default {denoFlowIo()}
 * @returns The block.
 * @throws {UsageError} On unknown server names or an unreadable golden set or corpus.
 */
export async function runLive(
  options: RunLiveOptions = {},
  io: Pick<FlowIo, "env" | "fromRoot" | "now"> = denoFlowIo(),
): Promise<LiveBlock> {
  const fromRoot = io.fromRoot;
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
      const { config, installDir } = await pickServers(all, options, say, fromRoot);
      say(`starting ${config.servers.length} upstream server(s)`);
      const pool = await (options.connectUpstreams ?? connectUpstreams)(config, {
        env: io.env(),
        installDir,
        timeoutMs,
        source: configPath,
        concurrency: options.concurrency ?? 8,
        now: io.now,
        onProgress: (server, outcome, message) =>
          outcome === "failed" ? say(`${server}: failed (${message})`) : undefined,
      });
      cleanup.push(() => pool.close());
      servers = pool.statuses();
      for (const s of servers.filter((s) => s.state !== "ready")) {
        warnings.push(`upstream "${s.server}" ${s.state}: ${s.message ?? ""}`);
      }
      const applied = options.overrides === undefined
        ? undefined
        : applyToolOverrides(pool.tools, options.overrides);
      for (const p of applied?.problems ?? []) warnings.push(`overrides: ${p.message}`);
      const served = applied === undefined ? pool : withPoolTools(pool, applied.tools);
      catalog = served.tools;
      directListingMs = pool.listingMs;
      const core = createProxyCore(
        served,
        options.retriever ? { retriever: options.retriever } : {},
      );
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
        if (options.overrides !== undefined) {
          catalog = applyToolOverrides(catalog, options.overrides).tools;
        }
      }
      if (options.overrides !== undefined) {
        warnings.push(
          "overrides: not applied to the endpoint's own tools (only to its direct menu, --corpus)",
        );
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
      counter: (options.createTokenizer ?? createTokenizer)(tokenizer),
      target: {
        kind: reference ? "reference-proxy" : "endpoint",
        url,
        tool,
        queryArg,
        extraArgs,
        ...(servers === undefined ? {} : { servers }),
        ...session.server(),
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

/** Options of {@linkcode writeLiveRecord}. */
export interface LiveRecordOptions {
  /** Folder of `live.json` (created). */
  readonly outDir: string;
  /** When the run started (ISO 8601), recorded as `createdAt`. */
  readonly createdAt: string;
  /** Names of the request headers sent to the endpoint (values are never recorded). */
  readonly headerNames: readonly string[];
  /** Task recorded in the file. @default {"tasks/live.ts"} */
  readonly task?: string;
}

/**
 * Writes `outDir/live.json`: the block with git state and dependency versions, and the header
 * names only (headers can carry secrets).
 *
 * @param block The block from {@linkcode runLive}.
 * @param options Folder, start time, header names.
 * @param io Git state, dependency versions. @default {denoFlowIo()}
 * @returns The path written.
 */
export async function writeLiveRecord(
  block: LiveBlock,
  options: LiveRecordOptions,
  io: Pick<FlowIo, "gitState" | "dependencyVersions"> = denoFlowIo(),
): Promise<string> {
  await Deno.mkdir(options.outDir, { recursive: true });
  const record = {
    schemaVersion: 1,
    createdAt: options.createdAt,
    task: options.task ?? "tasks/live.ts",
    git: await io.gitState(),
    dependencies: await io.dependencyVersions(),
    live: { ...block, target: { ...block.target, headers: [...options.headerNames].sort() } },
  };
  const path = `${options.outDir}/live.json`;
  await Deno.writeTextFile(path, stableJson(record, { decimals: RESULT_DECIMALS }));
  return path;
}

/**
 * Why a live block measured nothing: every discovery call failed. A run in that state must not
 * exit 0.
 *
 * @param block The block.
 * @returns The one-line reason, or null when at least one call answered (or none was made).
 */
export function liveFailure(block: LiveBlock): string | null {
  const q = block.queries;
  if (q.used === 0 || q.failed < q.used) return null;
  const first = q.failures[0];
  return `all ${q.used} discovery calls failed (first: ${first?.outcome}: ${first?.message})`;
}

/**
 * `K<sep>V` flag values as a record (keys and values trimmed), e.g. `--arg k=v`, `--header K:V`.
 *
 * @param values The flag's values (absent: none).
 * @param sep The separator (`=` or `:`).
 * @param flag The flag name, for the message.
 * @returns Key → value; a later key wins.
 * @throws {UsageError} On a value without a key before `sep`.
 */
export function parsePairs(
  values: readonly string[] | undefined,
  sep: string,
  flag: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values ?? []) {
    const i = v.indexOf(sep);
    if (i <= 0) throw new UsageError(`--${flag} must be K${sep}V, got ${JSON.stringify(v)}`);
    out[v.slice(0, i).trim()] = v.slice(i + 1).trim();
  }
  return out;
}

/**
 * A record's values typed as a JSON argument would be: `true`/`false` as booleans, decimal
 * numbers as numbers, anything else as text.
 *
 * @param record Key → text.
 * @returns Key → typed value.
 */
export function typedPairs(
  record: Record<string, string>,
): Record<string, string | number | boolean> {
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
