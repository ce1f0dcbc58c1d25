/**
 * The flow behind `deno task proxy`: mcpmeter's reference discovery proxy (`retrieve_tools`,
 * `describe_tool`, `call_tool`) over the servers of an mcpServers config, on stdio or streamable
 * HTTP, until `stop` resolves.
 *
 * @module
 */
import { RETRIEVER_NAMES, retrieverEntry } from "../retrieval/mod.ts";
import { parseServersConfig } from "../mcp/mod.ts";
import { installLaunches } from "../mcp/io.ts";
import {
  checkBindAddress,
  connectUpstreams,
  createHttpGuard,
  serveProxyHttp,
  serveProxyStdio,
} from "../proxy/io.ts";
import {
  createProxyCore,
  DEFAULT_MAX_RESULT_BYTES,
  proxyRetriever,
  upstreamSecrets,
} from "../proxy/mod.ts";
import { environmentSecrets, Redactor } from "../core/secrets.ts";
import { UsageError } from "../core/errors.ts";
import { isWildcard } from "../core/http_guard.ts";
import { localHostNames } from "../core/http_guard.ts";
import { BENCH_DEFAULTS } from "./bench_options.ts";
import {
  checkRetrieverModels,
  endpointContext,
  resolveRetrieverModels,
  type RetrieverModelOptions,
} from "./retriever_models.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";

/** Defaults of `deno task proxy` (paths repository-relative). */
export const PROXY_DEFAULTS = {
  /** Install folder of pinned server packages (the one `deno task capture` fills). */
  installDir: ".scratch/servers",
  /** Start-up timeout per upstream and per forwarded call, ms. */
  timeoutMs: 30_000,
  /** Cap of one forwarded `call_tool` result, bytes of JSON. */
  maxResultBytes: DEFAULT_MAX_RESULT_BYTES,
  /** Interface bound with HTTP. */
  hostname: "127.0.0.1",
  /** Ranking behind `retrieve_tools`. */
  retriever: "bm25",
} as const;

/**
 * What `deno task proxy` was asked for. The model options (`embeddingModel`, `rerankModel`,
 * `rerankBase`, `rerankK`, `expandModel`) are those of the bench: a retriever calling an
 * endpoint needs its model, and no model is given for a retriever that does not use it.
 */
export interface RunProxyOptions extends RetrieverModelOptions {
  /** Servers config file in the mcpServers shape (`--servers`). */
  readonly servers: string;
  /** Serve streamable HTTP on this port (0 = any free one); stdio when absent (`--http`). */
  readonly port?: number;
  /** Interface to bind with HTTP (`--host`). @default {PROXY_DEFAULTS.hostname} */
  readonly hostname?: string;
  /** Bearer token HTTP requests must carry; required off loopback (`--token`). */
  readonly token?: string;
  /** Further Host headers accepted (`--allow-host`). */
  readonly allowedHosts?: readonly string[];
  /** Browser Origins accepted (`--allow-origin`). */
  readonly allowedOrigins?: readonly string[];
  /** Folder of pinned packages for `${BIN}` (`--install-dir`). */
  readonly installDir?: string;
  /** Start-up and forwarded-call timeout, ms, positive (`--timeout-ms`). */
  readonly timeoutMs?: number;
  /** Cap of one forwarded result, bytes, at least 1024 (`--max-result-bytes`). */
  readonly maxResultBytes?: number;
  /** Retriever name of the registry, one needing no golden labels (`--retriever`). */
  readonly retriever?: string;
  /** Model registry file (`--models`). */
  readonly models?: string;
  /** Embedding vector cache folder (`--embedding-cache`). */
  readonly embeddingCache?: string;
  /** Answer cache of the rerank and expand models (`--chat-cache`). */
  readonly chatCache?: string;
  /** Wait, ms, for one answer of the retriever's model (see `BenchOptions.modelTimeoutMs`). */
  readonly modelTimeoutMs?: number;
  /** Environment: `${VAR}` expansion of the config and the upstreams' environment. */
  readonly env: Record<string, string>;
  /** Resolves when the proxy should shut down (the task: SIGINT or SIGTERM). */
  readonly stop: Promise<void>;
  /** Called with the HTTP URL once listening. */
  readonly onListening?: (url: string) => void;
}

/**
 * Checks the options a proxy would start with, before any upstream starts.
 *
 * @param options The options.
 * @throws {UsageError} On a port outside 0–65535, a non-positive timeout, a result cap under
 *   1024 bytes, HTTP-only settings without a port, a bind address off loopback without a
 *   token, an unknown retriever or one that needs golden labels, or a model (embedding, rerank,
 *   expand) given without (or missing for) the retriever that uses it.
 */
export function checkProxyOptions(options: Omit<RunProxyOptions, "env" | "stop">): void {
  const { port } = options;
  if (
    port === undefined &&
    (options.hostname !== undefined || options.token !== undefined ||
      options.allowedHosts?.length || options.allowedOrigins?.length)
  ) {
    throw new UsageError("--host, --token, --allow-host and --allow-origin apply to --http only");
  }
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new UsageError(`--http must be a port number in [0, 65535], got ${port}`);
  }
  if (options.timeoutMs !== undefined && options.timeoutMs <= 0) {
    throw new UsageError(`--timeout-ms must be a positive integer, got ${options.timeoutMs}`);
  }
  if (options.maxResultBytes !== undefined && options.maxResultBytes < 1_024) {
    throw new UsageError(
      `--max-result-bytes must be an integer >= 1024, got ${options.maxResultBytes}`,
    );
  }
  if (port !== undefined) {
    const hostname = options.hostname ?? PROXY_DEFAULTS.hostname;
    try {
      checkBindAddress(hostname, options.token, "--token or $MCPMETER_PROXY_TOKEN");
      createHttpGuard({
        hostname,
        port,
        allowedHosts: [...options.allowedHosts ?? []],
        allowedOrigins: [...options.allowedOrigins ?? []],
      });
    } catch (error) {
      if (error instanceof RangeError) throw new UsageError(error.message);
      throw error;
    }
  }
  const name = options.retriever ?? PROXY_DEFAULTS.retriever;
  if (!RETRIEVER_NAMES.includes(name)) {
    throw new UsageError(
      `--retriever: unknown retriever "${name}" (known: ${RETRIEVER_NAMES.join(", ")})`,
    );
  }
  const entry = retrieverEntry(name);
  if (entry.needsGolden) {
    throw new UsageError(`--retriever ${name} needs golden labels; the proxy has none`);
  }
  checkRetrieverModels([name], options, "--retriever");
}

/**
 * Runs the reference proxy until `options.stop` resolves (stdio: or until the client closes),
 * then closes the upstreams. Upstreams that fail to start are reported and left out. Secrets
 * (of the config's environment and the token) never reach a progress line or an answer.
 *
 * @param options What to serve and how (see {@linkcode RunProxyOptions}).
 * @param io Repository paths for defaults, progress lines. @default {denoFlowIo()}
 * @throws {UsageError} On options {@linkcode checkProxyOptions} refuses, an unreadable servers
 *   config, or an unknown embedding or chat model.
 * @throws {InputFileError} On a malformed servers config.
 */
export async function runProxy(
  options: RunProxyOptions,
  io: Pick<FlowIo, "fromRoot" | "progress"> = denoFlowIo(),
): Promise<void> {
  checkProxyOptions(options);
  const retrieverName = options.retriever ?? PROXY_DEFAULTS.retriever;
  const models = await resolveRetrieverModels(
    checkRetrieverModels([retrieverName], options, "--retriever"),
    {
      modelsPath: options.models ?? io.fromRoot(BENCH_DEFAULTS.models),
      embeddingCache: options.embeddingCache ?? io.fromRoot(BENCH_DEFAULTS.embeddingCache),
      chatCache: options.chatCache ?? io.fromRoot(BENCH_DEFAULTS.chatCache),
      env: options.env,
      dotEnv: io.fromRoot(".env"),
      ...(options.modelTimeoutMs === undefined ? {} : { timeoutMs: options.modelTimeoutMs }),
    },
  );
  const retriever = proxyRetriever(retrieverName, {
    seed: 0,
    ...endpointContext(retrieverName, models),
  });
  let text: string;
  try {
    text = await Deno.readTextFile(options.servers);
  } catch (error) {
    throw new UsageError(`Cannot read --servers "${options.servers}": ${(error as Error).message}`);
  }
  const config = parseServersConfig(text, { source: options.servers });
  const { env, token } = options;
  // Never echoed: not in answers, not in progress lines (the environment's own credentials too:
  // an upstream may print its environment).
  const secrets = [
    ...environmentSecrets(env),
    ...upstreamSecrets(config, env),
    ...(token === undefined ? [] : [token]),
  ];
  const redactor = new Redactor(secrets);
  const say = (line: string) => io.progress("proxy", redactor.text(line));
  const installDir = options.installDir ?? io.fromRoot(PROXY_DEFAULTS.installDir);
  // npx/pnpm dlx/bunx entries are pinned and installed first, as capture does: started as
  // written they would fetch at start, and hang offline until the timeout.
  const prepared = await installLaunches(config, { installDir, onProgress: say });
  const pool = await connectUpstreams(prepared.config, {
    env,
    installDir,
    failures: prepared.failed.map((f) => ({
      name: f.server,
      message: f.message ?? "cannot start",
    })),
    timeoutMs: options.timeoutMs ?? PROXY_DEFAULTS.timeoutMs,
    source: options.servers,
    onProgress: (server, outcome, message) =>
      say(`${server}: ${outcome}${message === undefined ? "" : ` (${message})`}`),
  });
  const statuses = pool.statuses();
  const ready = statuses.filter((s) => s.state === "ready").length;
  say(`${ready}/${config.servers.length} upstreams ready, ${pool.tools.length} tools`);
  const down = statuses.filter((s) => s.state !== "ready").map((s) => s.server);
  if (ready === 0 && config.servers.length > 0) {
    await pool.close();
    throw new Error(
      `no upstream started (${down.join(", ")}): the reasons are above; nothing to serve`,
    );
  }
  if (down.length > 0) {
    say(`warning: serving without ${down.join(", ")} (failed to start, see above)`);
  }
  for (const w of pool.warnings.slice(0, 20)) say(`warning: ${w}`);
  const core = createProxyCore(pool, {
    secrets,
    maxResultBytes: options.maxResultBytes ?? PROXY_DEFAULTS.maxResultBytes,
    retriever,
  });
  try {
    if (options.port !== undefined) {
      const hostname = options.hostname ?? PROXY_DEFAULTS.hostname;
      // On every interface: this machine's own names and addresses are its Host too.
      const local = isWildcard(hostname) ? localHostNames() : undefined;
      const http = serveProxyHttp(core, {
        port: options.port,
        hostname,
        allowedHosts: [...options.allowedHosts ?? [], ...local?.names ?? []],
        allowedOrigins: [...options.allowedOrigins ?? []],
        ...(token === undefined ? {} : { token }),
        onRefusal: (status, reason) => say(`refused (${status}): ${reason}`),
      });
      const shown = local
        ? `http://${local.shareable ?? "127.0.0.1"}:${new URL(http.url).port}${
          new URL(http.url).pathname
        } (every interface)`
        : http.url;
      say(`listening on ${shown}${token ? " (bearer token required)" : ""}`);
      options.onListening?.(http.url);
      await options.stop;
      await http.shutdown();
    } else {
      const session = await serveProxyStdio(core);
      say("serving MCP on stdio");
      await Promise.race([session.closed, options.stop]);
      await session.close();
    }
  } finally {
    await pool.close();
  }
}
