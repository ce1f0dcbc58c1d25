/**
 * Lenient, paginated `tools/list` / `prompts/list` / `resources/list` over a
 * connected MCP SDK `Client`.
 *
 * The SDK's `client.listTools()` validates the whole result with a strict
 * schema and throws when one tool is off-spec (the reference gitlab server
 * sends `inputSchema: {"$schema": ...}` with no `type`). Here each page is
 * requested with `client.request(...)` and a lenient schema that only demands
 * what a catalog needs (a `name` per tool or prompt, a `uri` per resource);
 * every other field is kept exactly as received, tools and prompts in their received key order. The strict SDK schema is then
 * checked separately and a rejection becomes a warning, not a failure.
 *
 * @module
 */

import {
  ErrorCode,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListToolsResultSchema,
} from "../core/sdk.ts";
import { z } from "zod";
import type { JsonObject } from "../catalog/types.ts";
import { PaginationError } from "./errors.ts";
import { oneLine } from "../core/text.ts";

/** Upper bound on pages per list: a list that needs more is an error (page count). */
export const MAX_LIST_PAGES = 1000;

/** The paginated MCP list methods mcpmeter reads. */
export type ListMethod = "tools/list" | "prompts/list" | "resources/list";

/**
 * The two methods of the SDK's `Client` that listing uses; a connected
 * `Client` from `@modelcontextprotocol/sdk/client/index.js` satisfies it.
 * (Declared here so the public surface does not depend on the SDK's types.)
 */
export interface ListingClient {
  /** Sends a request and validates the result with `resultSchema` (a zod schema). */
  request(
    request: { method: string; params?: Record<string, unknown> },
    resultSchema: unknown,
    options?: { timeout?: number; signal?: AbortSignal },
  ): Promise<unknown>;
  /** The capabilities from the `initialize` result, once connected. */
  getServerCapabilities():
    | { readonly tools?: unknown; readonly prompts?: unknown; readonly resources?: unknown }
    | undefined;
}

/** Options of {@linkcode listAll} and {@linkcode listServer}. */
export interface ListOptions {
  /** Timeout of each request, in ms (passed to the SDK as `timeout`). */
  readonly requestTimeoutMs: number;
  /** Aborts the pending request (e.g. the server's overall deadline). */
  readonly signal?: AbortSignal;
  /** Maximum pages per list (default {@linkcode MAX_LIST_PAGES}). */
  readonly maxPages?: number;
  /**
   * `notifications/tools/list_changed` seen from the server (see
   * {@linkcode ListChangeWatcher}); with it, a server that declares
   * `tools.listChanged` is re-listed on each change until none arrives within
   * `settleMs`. Without it, `tools/list` is read once.
   */
  readonly changes?: ListChangeWatcher;
  /**
   * How long to wait for (another) `list_changed` after a listing of a server
   * that declares `tools.listChanged`, in ms.
   * @default {DEFAULT_SETTLE_MS}
   */
  readonly settleMs?: number;
}

/** Default settle window for servers that declare `tools.listChanged`, in ms. */
export const DEFAULT_SETTLE_MS = 1000;

/** Most re-listings after `list_changed` before the capture keeps the last list and warns. */
export const MAX_RELISTS = 10;

/** Counts `notifications/tools/list_changed` and lets a caller wait for the next one. */
export interface ListChangeWatcher {
  /** Notifications received so far. */
  seen(): number;
  /**
   * Resolves true as soon as the count exceeds `after`, false after `ms` or on abort.
   *
   * @param after The count already handled.
   * @param ms How long to wait, in ms.
   * @param signal Ends the wait early (resolves false).
   */
  waitBeyond(after: number, ms: number, signal?: AbortSignal): Promise<boolean>;
}

/**
 * A {@linkcode ListChangeWatcher} fed by calling `notify()` (e.g. from the SDK
 * client's notification handler).
 *
 * @returns The watcher plus `notify`, which records one notification.
 *
 * @example Usage
 * ```ts
 * import { listChangeWatcher } from "./list.ts";
 * const w = listChangeWatcher();
 * const waiting = w.waitBeyond(0, 1000);
 * w.notify();
 * if (!(await waiting) || w.seen() !== 1) throw new Error();
 * ```
 */
export function listChangeWatcher(): ListChangeWatcher & { notify(): void } {
  let count = 0;
  const waiters = new Set<() => void>();
  return {
    seen: () => count,
    notify() {
      count += 1;
      for (const wake of [...waiters]) wake();
    },
    waitBeyond(after, ms, signal) {
      if (count > after) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const done = (value: boolean) => {
          clearTimeout(timer);
          waiters.delete(wake);
          signal?.removeEventListener("abort", onAbort);
          resolve(value);
        };
        const wake = () => {
          if (count > after) done(true);
        };
        const onAbort = () => done(false);
        const timer = setTimeout(() => done(false), ms);
        waiters.add(wake);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
  };
}

/** All items of one paginated list. */
export interface PagedList {
  /** Items of every page, in server order, exactly as received. */
  readonly items: readonly JsonObject[];
  /** Pages received (count, ≥ 1). */
  readonly pages: number;
  /** Non-fatal findings, e.g. the strict SDK schema rejecting a page. */
  readonly warnings: readonly string[];
}

/** What one server lists. */
export interface ServerListing {
  /** `tools/list` items in server order. */
  readonly tools: readonly JsonObject[];
  /** `prompts/list` items, present when the server advertises `prompts` and the list succeeded. */
  readonly prompts?: readonly JsonObject[];
  /** `resources/list` items, present when the server advertises `resources` and the list succeeded. */
  readonly resources?: readonly JsonObject[];
  /** Pages received per method (count). */
  readonly pages: Readonly<Partial<Record<ListMethod, number>>>;
  /** Non-fatal findings, in the order they occurred. */
  readonly warnings: readonly string[];
}

/**
 * A list item checked for a string `name` and returned as received: a zod object schema would
 * rebuild it with its declared keys first, and the key order of the received items is part of
 * what the wire layer counts (lib/billing).
 */
const namedItem = z.custom<Record<string, unknown>>(
  (v) =>
    v !== null && typeof v === "object" && !Array.isArray(v) &&
    typeof (v as { name?: unknown }).name === "string",
  { message: "an item needs a string name" },
);
const ToolsPage = z.looseObject({
  tools: z.array(namedItem),
  nextCursor: z.string().nullish(),
});
const PromptsPage = z.looseObject({
  prompts: z.array(namedItem),
  nextCursor: z.string().nullish(),
});
const ResourcesPage = z.looseObject({
  resources: z.array(z.looseObject({ uri: z.string() })),
  nextCursor: z.string().nullish(),
});

const METHODS = {
  "tools/list": { key: "tools", lenient: ToolsPage, strict: ListToolsResultSchema },
  "prompts/list": { key: "prompts", lenient: PromptsPage, strict: ListPromptsResultSchema },
  "resources/list": {
    key: "resources",
    lenient: ResourcesPage,
    strict: ListResourcesResultSchema,
  },
} as const;

/**
 * Requests every page of one list method, following `nextCursor`.
 *
 * @param client A connected SDK client.
 * @param method `tools/list`, `prompts/list` or `resources/list`.
 * @param options Per-request timeout (ms), abort signal, page limit.
 * @returns The items in order, the page count and warnings (one per page the
 *   SDK's strict result schema rejects).
 * @throws {PaginationError} When a cursor repeats or the list needs more than
 *   `maxPages` pages.
 * @throws {RangeError} When `requestTimeoutMs` or `maxPages` is not positive.
 * @throws The SDK's `McpError` (timeout, connection closed, error response,
 *   result that fails even the lenient schema).
 */
export async function listAll(
  client: ListingClient,
  method: ListMethod,
  options: ListOptions,
): Promise<PagedList> {
  const maxPages = options.maxPages ?? MAX_LIST_PAGES;
  checkPositive("requestTimeoutMs", options.requestTimeoutMs);
  checkPositive("maxPages", maxPages);
  const spec = METHODS[method];
  const items: JsonObject[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  do {
    const request = cursor === undefined ? { method } : { method, params: { cursor } };
    const page = await client.request(request, spec.lenient, {
      timeout: options.requestTimeoutMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    }) as Record<string, unknown>;
    pages += 1;
    const strict = spec.strict.safeParse(page);
    if (!strict.success) {
      const issue = strict.error.issues[0];
      const path = issue.path.map((p) => typeof p === "number" ? `[${p}]` : `.${String(p)}`)
        .join("").replace(/^\./, "");
      const more = strict.error.issues.length > 1
        ? ` (+${strict.error.issues.length - 1} more issue(s))`
        : "";
      warnings.push(
        `${method} page ${pages}: the SDK's strict result schema rejects it at ${
          path === "" ? "the top level" : path
        }: ${issue.message}${more}; captured leniently`,
      );
    }
    items.push(...(page[spec.key] as JsonObject[]));
    const next = page.nextCursor as string | null | undefined;
    cursor = next ?? undefined;
    if (cursor !== undefined) {
      if (seen.has(cursor)) {
        throw new PaginationError(method, pages, `cursor ${JSON.stringify(cursor)} repeated`);
      }
      if (pages >= maxPages) {
        throw new PaginationError(method, pages, `more than ${maxPages} pages`);
      }
      seen.add(cursor);
    }
  } while (cursor !== undefined);
  return { items, pages, warnings };
}

/**
 * Lists a server's tools, plus its prompts and resources where its
 * capabilities advertise them.
 *
 * A failing `tools/list` throws; a failing `prompts/list` or `resources/list`
 * becomes a warning and leaves that field absent. Duplicate tool names within
 * the server are reported as a warning (the items are kept as sent).
 *
 * @param client A client whose `connect()` has completed.
 * @param options Per-request timeout (ms), abort signal, page limit.
 * @returns Items, page counts and warnings.
 * @throws Whatever {@linkcode listAll} throws for `tools/list`.
 */
export async function listServer(
  client: ListingClient,
  options: ListOptions,
): Promise<ServerListing> {
  const capabilities = client.getServerCapabilities() ?? {};
  const warnings: string[] = [];
  let tools: PagedList;
  if (capabilities.tools === undefined) {
    try {
      tools = await listAll(client, "tools/list", options);
      warnings.push(
        `the server does not advertise the "tools" capability; tools/list tried anyway`,
      );
    } catch (error) {
      // Spec-compliant: a server without tools may refuse the method (-32601).
      if ((error as { code?: unknown })?.code !== ErrorCode.MethodNotFound) throw error;
      tools = { items: [], pages: 0, warnings: [] };
      warnings.push(
        `no tools: the server does not advertise the "tools" capability and answers ` +
          `tools/list with -32601 (method not found)`,
      );
    }
  } else {
    tools = await listWithChanges(client, capabilities.tools, options, warnings);
  }
  warnings.push(...tools.warnings);
  const counts = new Map<string, number>();
  for (const tool of tools.items) {
    const name = tool.name as string;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  for (const [name, n] of counts) {
    if (n > 1) warnings.push(`tools/list: tool name ${JSON.stringify(name)} appears ${n} times`);
  }
  const pages: Partial<Record<ListMethod, number>> = { "tools/list": tools.pages };
  let prompts: readonly JsonObject[] | undefined;
  let resources: readonly JsonObject[] | undefined;
  for (const method of ["prompts/list", "resources/list"] as const) {
    const capability = method === "prompts/list" ? "prompts" : "resources";
    if (capabilities[capability] === undefined) continue;
    try {
      const list = await listAll(client, method, options);
      warnings.push(...list.warnings);
      pages[method] = list.pages;
      if (method === "prompts/list") prompts = list.items;
      else resources = list.items;
    } catch (error) {
      warnings.push(`${method} failed (ignored): ${oneLine(error)}`);
    }
  }
  return {
    tools: tools.items,
    ...(prompts === undefined ? {} : { prompts }),
    ...(resources === undefined ? {} : { resources }),
    pages,
    warnings,
  };
}

/**
 * `tools/list`, read again on every `list_changed` the server sends (when it
 * declares `tools.listChanged` and a watcher is given), until none arrives
 * within the settle window; the last list is kept. Notifications that came
 * before or during a listing trigger one more listing.
 */
async function listWithChanges(
  client: ListingClient,
  capability: unknown,
  options: ListOptions,
  warnings: string[],
): Promise<PagedList> {
  const watcher = options.changes;
  const declared = (capability as { listChanged?: unknown } | null)?.listChanged === true;
  let handled = watcher?.seen() ?? 0;
  let list = await listAll(client, "tools/list", options);
  if (watcher === undefined || !declared) return list;
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  checkPositive("settleMs", settleMs);
  let relists = 0;
  while (await watcher.waitBeyond(handled, settleMs, options.signal)) {
    if (relists >= MAX_RELISTS) {
      warnings.push(
        `tools/list_changed kept arriving (${watcher.seen()} notifications): kept the list ` +
          `read after ${relists} re-listings`,
      );
      return list;
    }
    handled = watcher.seen();
    list = await listAll(client, "tools/list", options);
    relists += 1;
  }
  if (relists > 0) {
    warnings.push(
      `tools/list_changed received ${watcher.seen()} time(s): tools/list read ${relists + 1} ` +
        `times, the last list (${list.items.length} tools) kept; settle window ${settleMs} ms`,
    );
  }
  return list;
}

function checkPositive(name: string, value: number): void {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  }
}
