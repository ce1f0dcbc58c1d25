/**
 * Lenient, paginated `tools/list` / `prompts/list` / `resources/list` over a
 * connected MCP SDK `Client`.
 *
 * The SDK's `client.listTools()` validates the whole result with a strict
 * schema and throws when one tool is off-spec (the reference gitlab server
 * sends `inputSchema: {"$schema": ...}` with no `type`). Here each page is
 * requested with `client.request(...)` and a lenient schema that only demands
 * what a catalog needs (a `name` per tool or prompt, a `uri` per resource);
 * every other field is kept exactly as received. The strict SDK schema is then
 * checked separately and a rejection becomes a warning, not a failure.
 *
 * @module
 */

import {
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListToolsResultSchema,
} from "../_sdk.ts";
import { z } from "zod";
import type { JsonObject } from "../catalog/types.ts";
import { PaginationError } from "./errors.ts";
import { oneLine } from "../_text.ts";

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

const ToolsPage = z.looseObject({
  tools: z.array(z.looseObject({ name: z.string() })),
  nextCursor: z.string().nullish(),
});
const PromptsPage = z.looseObject({
  prompts: z.array(z.looseObject({ name: z.string() })),
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
  if (capabilities.tools === undefined) {
    warnings.push(`the server does not advertise the "tools" capability; tools/list tried anyway`);
  }
  const tools = await listAll(client, "tools/list", options);
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

function checkPositive(name: string, value: number): void {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  }
}
