/**
 * The workbench application: a Hono app assembled from features. A feature is one file that
 * registers its routes (API and pages) and its navigation entries; adding a page means adding a
 * feature to the list, nothing else changes.
 *
 * @example A feature
 * ```ts ignore
 * import type { WorkbenchFeature } from "./app.ts";
 * export const hello: WorkbenchFeature = {
 *   id: "hello",
 *   nav: [{ href: "/hello", title: "Hello", order: 90 }],
 *   register(app, ctx) {
 *     app.get("/api/hello", (c) => c.json({ suites: ctx.config.dir }));
 *     app.get("/hello", (c) => c.html(page(ctx, { title: "Hello", active: "/hello", body: "<p>hi</p>" })));
 *   },
 * };
 * ```
 *
 * @module
 */

import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { Redactor } from "../core/secrets.ts";
import type { JsonObject } from "../catalog/types.ts";
import type { AgentConfig } from "../agent/types.ts";
import type { ConfigStore } from "./config_store.ts";
import type { RunStore } from "./run_store.ts";
import type { Runner, RunQueue } from "./queue.ts";
import { WorkbenchError } from "./_paths.ts";
import { type GuardOptions, workbenchGuard } from "./guard.ts";
import { DEFAULT_MAX_BODY_BYTES, limitBody } from "./http.ts";

/** A navigation link in the page header. */
export interface NavEntry {
  /** Path of the page. */
  readonly href: string;
  /** Link text. */
  readonly title: string;
  /** Position (ascending). */
  readonly order: number;
}

/**
 * Agent versions (the reporting issue cuts and stores them). The workbench resolves
 * `{agentId, version}` selections through this; without a provider every version is unknown.
 */
export interface AgentVersions {
  /**
   * The agent as it was at a version, resolved for running (prompt read).
   *
   * @param agentId Agent id.
   * @param version Version as given in the request.
   * @returns The agent, or `undefined` for an unknown version.
   */
  resolve(agentId: string, version: string): Promise<AgentConfig | undefined>;
  /**
   * Versions of an agent, newest first.
   *
   * @param agentId Agent id.
   */
  list(agentId: string): Promise<readonly { version: string; cutAt: string }[]>;
}

/** A chat session service (see `chat.ts`). */
export interface ChatService {
  /**
   * Sends a message in a session and streams what happens.
   *
   * @param sessionId Client-chosen id.
   * @param agentId Agent id.
   * @param message User message.
   * @param emit Called with each event (`tool_call`, `answer`, `error`, `usage`).
   * @param modelId A chat model's registry id the agent talks through instead of its own (e.g.
   *   `scripted`, simulated and key-free); absent: the agent's model.
   */
  send(
    sessionId: string,
    agentId: string,
    message: string,
    emit: (event: string, data: JsonObject) => Promise<void>,
    modelId?: string,
  ): Promise<void>;
  /** Ends a session (closes its servers). */
  end(sessionId: string): Promise<void>;
  /** Ends every session. */
  close(): Promise<void>;
}

/** A tool catalog the Catalog page lists and can bench. */
export interface CatalogEntry {
  /** Name the bench form posts (unique), e.g. `reference_v1` or `captures/mine`. */
  readonly name: string;
  /** Absolute path of the file. */
  readonly path: string;
  /** Where it comes from: `reference`, `captured`, `shared`, ... */
  readonly source: string;
  /** The corpus id the bench gives it (`null`: the file cannot be read as a catalog). */
  readonly corpusId: string | null;
  /** Tools in it (`null`: unreadable). */
  readonly tools: number | null;
  /** Golden sets whose `corpus_version` is its id: scored when it is benched. */
  readonly golden: readonly string[];
  /** Why it cannot be read, when it cannot. */
  readonly problem?: string;
}

/** What a bench run is asked to measure. */
export interface BenchRequest {
  /** A listed catalog's name. Give this or `path`. */
  readonly corpus?: string;
  /** Any catalog file, wherever it is (`~/` is the home folder). */
  readonly path?: string;
  /** A golden set file to score too (beside the listed ones that match the corpus). */
  readonly golden?: string;
}

/** Starting `bench` runs from the Catalog page. */
export interface BenchService {
  /** Catalogs that can be benchmarked: the reference corpus, captured catalogs, ... */
  catalogs(): Promise<readonly CatalogEntry[]>;
  /** The catalog offered first (what `deno task bench` measures by default), when it is listed. */
  readonly defaultCorpus?: string;
  /**
   * Starts a bench run.
   *
   * @param request The catalog (listed, or a file) and golden sets.
   * @returns Id and output folder of the job, and the golden sets it scores.
   */
  start(request: BenchRequest): Promise<{ jobId: string; outDir: string; golden: string[] }>;
  /** Jobs started by this server, newest first. */
  jobs(): readonly BenchJob[];
}

/** A bench run started from the workbench. */
export interface BenchJob {
  /** Job id. */
  readonly jobId: string;
  /** Catalog: its listed name, or the file named. */
  readonly corpus: string;
  /** Golden sets scored (file paths); none: retrieval is not scored. */
  readonly golden: readonly string[];
  /** `running`, `completed` or `failed`. */
  readonly state: "running" | "completed" | "failed";
  /** Output folder (holds `report.json` when completed). */
  readonly outDir: string;
  /** Last lines of the task's stderr. */
  readonly log: string;
  /** Retrieval rows the report holds (`null` until it is read). */
  readonly retrievalRows: number | null;
}

/** What the Audit page may ask an audit to read (each optional; none: this account's configs). */
export interface AuditRequest {
  /** The working folder whose project files are read (`--project`). */
  readonly project?: string;
  /** One config file to read instead of discovering (`--config`). */
  readonly config?: string;
  /** Another home folder to audit (`--home`). */
  readonly home?: string;
}

/** Starting `deno task audit` runs from the Audit page. */
export interface AuditService {
  /**
   * Starts an audit.
   *
   * @param request What to read.
   * @returns Id of the job and the report file it writes.
   */
  start(request: AuditRequest): Promise<{ jobId: string; out: string }>;
  /** Jobs started by this server, newest first. */
  jobs(): readonly AuditJob[];
}

/** An audit started from the workbench. */
export interface AuditJob {
  /** Job id (the report file's name without `.json`). */
  readonly jobId: string;
  /** What it reads. */
  readonly request: AuditRequest;
  /** `running`, `completed` (a report was written) or `failed`. */
  readonly state: "running" | "completed" | "failed";
  /** The report file. */
  readonly out: string;
  /** Last lines of the task's stderr. */
  readonly log: string;
}

/** What every feature gets: the stores, the queue, services and clock. */
export interface WorkbenchContext {
  /** Working config. */
  readonly config: ConfigStore;
  /** Runs folder. */
  readonly runs: RunStore;
  /** Run queue. */
  readonly queue: RunQueue;
  /** Results folder (reports are looked up under it). */
  readonly resultsDir: string;
  /** Agent versions. */
  readonly versions: AgentVersions;
  /** Chat sessions, when available. */
  readonly chat?: ChatService;
  /** Bench runs, when available. */
  readonly bench?: BenchService;
  /** Audit runs, when available. */
  readonly audit?: AuditService;
  /** ISO-8601 UTC now. */
  readonly isoNow: () => string;
  /** What would make a run fail at once (the runner's `preflight`), checked before it is created. */
  readonly preflight?: Runner["preflight"];
  /** Waits, ms (streams poll with it). */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Navigation of every feature, sorted. */
  nav: readonly NavEntry[];
}

/** One feature: its routes and navigation entries. */
export interface WorkbenchFeature {
  /** Unique id. */
  readonly id: string;
  /** Header links. */
  readonly nav?: readonly NavEntry[];
  /**
   * Registers routes.
   *
   * @param app The app (register absolute paths).
   * @param ctx Shared context.
   */
  register(app: Hono, ctx: WorkbenchContext): void;
}

/** Inputs of {@linkcode createWorkbenchApp}. */
export interface WorkbenchAppOptions {
  /** Shared context (`nav` is filled in). */
  readonly context: WorkbenchContext;
  /** Features, in registration order. */
  readonly features: readonly WorkbenchFeature[];
  /** Guard settings. */
  readonly guard: GuardOptions;
  /** Largest request body, bytes. @default {DEFAULT_MAX_BODY_BYTES} */
  readonly maxBodyBytes?: number;
  /** Logs one line per unexpected error (never a secret, never a stack to the client). */
  readonly log?: (line: string) => void;
  /**
   * The workbench's secrets (lib/core/secrets.ts): every answer is written through it (JSON
   * string by string, event streams event by event, pages and text as text), whatever route
   * made it. Default: none.
   */
  readonly redactor?: Redactor;
  /**
   * The HTML of the error page a browser gets for a page route (HTTP status, one-line message);
   * without it, such errors are plain text. API routes always answer JSON.
   */
  readonly errorPage?: (status: number, message: string) => string;
}

/**
 * Middleware that passes every answer through `redactor`: `application/json` string by string,
 * `text/event-stream` event by event as it streams, other text (pages, plain text) as text;
 * binary answers (a PDF) as they are.
 *
 * @param redactor The secrets.
 * @returns Hono middleware.
 */
export function redactAnswers(redactor: Redactor): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    const type = res.headers.get("content-type") ?? "";
    if (res.body === null || redactor.secrets.length === 0) return;
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    const init = { status: res.status, statusText: res.statusText, headers };
    if (type.startsWith("text/event-stream")) {
      c.res = new Response(res.body.pipeThrough(redactor.eventStream()), init);
    } else if (type.includes("json") || type.startsWith("text/")) {
      const text = await res.text();
      const out = type.includes("json") ? redactor.jsonText(text) : redactor.text(text);
      c.res = new Response(out, init);
    }
  };
}

/**
 * Builds the workbench app: the guard first, the body limit, then every feature, then JSON
 * errors.
 *
 * @param options See {@linkcode WorkbenchAppOptions}.
 * @returns The Hono app (`app.fetch` serves it).
 * @throws {RangeError} when two features share an id.
 */
export function createWorkbenchApp(options: WorkbenchAppOptions): Hono {
  const app = new Hono();
  const ids = new Set<string>();
  for (const f of options.features) {
    if (ids.has(f.id)) throw new RangeError(`Cannot build the workbench: feature "${f.id}" twice`);
    ids.add(f.id);
  }
  options.context.nav = options.features.flatMap((f) => f.nav ?? [])
    .sort((a, b) => a.order - b.order);
  app.use("*", workbenchGuard(options.guard));
  if (options.redactor) app.use("*", redactAnswers(options.redactor));
  app.use("*", limitBody(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES));
  app.use("*", async (c, next) => {
    await next();
    c.header("x-content-type-options", "nosniff");
    c.header("referrer-policy", "no-referrer");
    if ((c.res.headers.get("content-type") ?? "").startsWith("text/html")) {
      c.header("x-frame-options", "DENY");
    }
  });
  for (const f of options.features) f.register(app, options.context);
  // A browser opening a page (it asks for text/html) gets an error page (options.errorPage);
  // the API, scripts and fetch() calls get JSON.
  const wantsPage = (c: Context): boolean =>
    !c.req.path.startsWith("/api/") && (c.req.header("accept") ?? "").includes("text/html");
  const errorPage = (c: Context, status: number, message: string) =>
    options.errorPage === undefined
      ? c.text(`${status} ${message}\n`, status as 400)
      : c.html(options.errorPage(status, message), status as 400);
  app.notFound((c) => {
    const message = `no route ${c.req.method} ${c.req.path}`;
    if (wantsPage(c)) return errorPage(c, 404, message);
    return c.req.path.startsWith("/api/")
      ? c.json({ error: message }, 404)
      : c.text("404 not found\n", 404);
  });
  app.onError((e, c) => {
    if (e instanceof WorkbenchError) {
      if (wantsPage(c)) return errorPage(c, e.status, e.message);
      const body = e.field === undefined
        ? { error: e.message }
        : { error: e.message, field: e.field };
      return c.json(body, e.status as 400);
    }
    // Not a refusal the workbench meant: its message may name files of this machine (and whether
    // they exist), so it goes to the log and the answer says only that it failed.
    const line = String((e as Error)?.message ?? e).split("\n")[0];
    options.log?.(`[serve] ${c.req.method} ${c.req.path}: ${line}`);
    const answer = `internal error while answering ${c.req.method} ${c.req.path} ` +
      "(the workbench's log has the cause)";
    if (wantsPage(c)) return errorPage(c, 500, answer);
    return c.json({ error: answer }, 500);
  });
  return app;
}
