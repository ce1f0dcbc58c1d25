/**
 * Servers pasted from an MCP client's config: a Claude Desktop or Cursor `mcpServers` table, a
 * VS Code `mcp.json` (`servers`) or `settings.json` (`mcp.servers`) block, a `"name": {...}`
 * fragment of any of them, or a table of entries. Each entry is read in the client's dialect
 * (`lib/audit`: `${env:NAME}` becomes `${NAME}`, `${userHome}` `${HOME}`, Windsurf's
 * `serverUrl` a `url`; a VS Code `${input:...}` or a `${workspaceFolder}` cannot be kept, and
 * says why) and written as a servers-config entry (`lib/mcp/config.ts`). Pure.
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../catalog/types.ts";
import { ConfigSyntaxError, parseConfigText, readServerEntry } from "../audit/mod.ts";
import type { ServerEntry } from "../mcp/config.ts";
import { WorkbenchError } from "./_paths.ts";

/** What a paste holds. */
export interface PastedServers {
  /** Which shape it was read as, e.g. `VS Code (servers)`. */
  readonly format: string;
  /** Servers-config entries by name. */
  readonly servers: Readonly<Record<string, JsonObject>>;
  /** Entries left out and why (`disabled` ones), one line each. */
  readonly skipped: readonly string[];
  /** Keys of the client's entries that have no servers-config meaning, dropped (e.g. `envFile`). */
  readonly dropped: readonly string[];
}

const isObject = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const ENTRY_KEYS = ["command", "url", "serverUrl"];
const isEntry = (v: JsonValue | undefined) => isObject(v) && ENTRY_KEYS.some((k) => k in v);

/** The keys the entry is rebuilt from; anything else a client wrote is reported dropped. */
const KEPT = new Set(["command", "args", "env", "cwd", "url", "serverUrl", "headers", "type"]);
const CLIENT_ONLY = new Set(["disabled", "alwaysLoad"]);

/** The servers-config entry of a parsed one (launch fields only, as the client meant them). */
function entryJson(e: ServerEntry): JsonObject {
  if (e.kind === "remote") {
    const type = e.transport === "sse" ? "sse" : e.transport === "streamable-http" ? "http" : null;
    return {
      ...(type ? { type } : {}),
      url: e.url,
      ...(Object.keys(e.headers).length > 0 ? { headers: { ...e.headers } } : {}),
    };
  }
  return {
    command: e.command,
    args: [...e.args],
    ...(Object.keys(e.env).length > 0 ? { env: { ...e.env } } : {}),
    ...(e.cwd !== undefined ? { cwd: e.cwd } : {}),
  };
}

/** The text as JSON(C), or as the body of an object (a `"name": {...}` fragment). */
function parse(text: string): JsonValue {
  try {
    return parseConfigText(text, "the pasted text", true);
  } catch (e) {
    if (!(e instanceof ConfigSyntaxError)) throw e;
    try {
      return parseConfigText(`{${text.trim().replace(/,\s*$/, "")}}`, "the pasted text", true);
    } catch {
      throw new WorkbenchError(400, e.message.replace(/^the pasted text:/, "line "), "text");
    }
  }
}

/**
 * Reads the servers a pasted client config holds.
 *
 * @param text What the user pasted.
 * @returns The entries, their format, what was skipped or dropped.
 * @throws {WorkbenchError} 400 (field `text`) for text that is not JSON, holds no server entry,
 *   a single entry without its name, or an entry that cannot be started here (named, with why).
 */
export function serversFromPaste(text: string): PastedServers {
  if (text.trim() === "") throw new WorkbenchError(400, "paste a client's server entry", "text");
  const doc = parse(text);
  if (!isObject(doc)) {
    throw new WorkbenchError(400, "the pasted text is not a JSON object of servers", "text");
  }
  let table: JsonObject;
  let format: string;
  if (isObject(doc.mcpServers)) {
    [table, format] = [doc.mcpServers, "Claude Desktop / Cursor (mcpServers)"];
  } else if (isObject(doc.servers)) [table, format] = [doc.servers, "VS Code mcp.json (servers)"];
  else if (isObject(doc.mcp) && isObject(doc.mcp.servers)) {
    [table, format] = [doc.mcp.servers, "VS Code settings.json (mcp.servers)"];
  } else if (isEntry(doc)) {
    throw new WorkbenchError(
      400,
      `this is one server's entry without its name: paste it as "name": {...}`,
      "text",
    );
  } else [table, format] = [doc, "a table of servers"];
  const names = Object.keys(table);
  if (names.length === 0 || !names.every((n) => isEntry(table[n]))) {
    const odd = names.find((n) => !isEntry(table[n]));
    throw new WorkbenchError(
      400,
      odd === undefined
        ? "the pasted text holds no server"
        : `"${odd}" is not a server entry (one has a command or a url)`,
      "text",
    );
  }
  const servers: Record<string, JsonObject> = {};
  const skipped: string[] = [];
  const dropped = new Set<string>();
  for (const name of names) {
    const raw = table[name] as JsonObject;
    Object.keys(raw).filter((k) => !KEPT.has(k) && !CLIENT_ONLY.has(k)).forEach((k) =>
      dropped.add(k)
    );
    const kept = Object.fromEntries(
      Object.entries(raw).filter(([k]) => KEPT.has(k) || CLIENT_ONLY.has(k)),
    );
    // ${userHome} is the home folder of whoever runs the server: the HOME variable.
    const s = readServerEntry(name, kept, {
      scope: "pasted",
      source: "the pasted text",
      folders: { home: "${HOME}" },
    });
    if (s.disabled) {
      skipped.push(`${name}: disabled in the client's config`);
      continue;
    }
    if (s.entry === undefined) {
      throw new WorkbenchError(400, `server "${name}" cannot be added: ${s.problem}`, "text");
    }
    servers[name] = entryJson(s.entry);
  }
  return { format, servers, skipped, dropped: [...dropped].sort() };
}
