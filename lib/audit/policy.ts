/**
 * Claude Code's MCP server policy (code.claude.com/docs/en/managed-mcp): which configured servers
 * its allowlists and denylists let load.
 *
 * - `deniedMcpServers` entries from every settings file combine; a server matching one (by
 *   `serverName`, `serverCommand` or `serverUrl`) does not load, whatever its origin.
 * - `allowedMcpServers`, when some settings file sets it: the lists of every file combine, or the
 *   managed settings' list alone with `allowManagedMcpServersOnly: true` there. A remote server
 *   must match a `serverUrl` entry, or, when the list has none, a `serverName` entry; a stdio
 *   server likewise with `serverCommand`. An empty list lets none through. The organization's own
 *   servers skip the allowlist: `managedMcpServers` entries, and `managed-mcp.json` entries that
 *   reference no `${VAR}`.
 * - `serverCommand` is the command and its arguments, matched exactly in order; `serverUrl` a URL
 *   pattern where `*` matches anything, the host is compared without case and without a
 *   trailing dot, and a pattern without a path matches every path. Both sides are expanded
 *   (`${VAR}`, `${VAR:-default}`) where the variable's value is known.
 *
 * Pure: the settings and the variables are passed in.
 *
 * @module
 */
import type { JsonValue } from "../catalog/types.ts";
import type { ServerEntry } from "../mcp/config.ts";
import { bindVariables, entryVariables, isObject } from "./entries.ts";
import { VARIABLE_PATTERN } from "../core/secrets.ts";

/** One allowlist or denylist entry as written. */
type PolicyEntry =
  | { readonly serverName: string }
  | { readonly serverCommand: readonly string[] }
  | { readonly serverUrl: string };

/** The lists that apply to one Claude Code config. */
export interface ServerPolicy {
  /** The combined denylist. */
  readonly denied: readonly PolicyEntry[];
  /** The allowlist that applies; `undefined` when no settings file sets one. */
  readonly allowed?: readonly PolicyEntry[];
  /** Where the allowlist was read (for the cause of a blocked server). */
  readonly allowedFrom: string;
}

/** A settings file: where it is (`~`-relative), whether it is the managed one, and its JSON. */
export interface PolicySource {
  readonly where: string;
  readonly managed: boolean;
  readonly value: JsonValue | undefined;
}

/** The well-formed entries of a list (one key, of the right type); the rest are noted. */
function entries(value: JsonValue | undefined, where: string, key: string, notes: string[]) {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    notes.push(`${where}: ${key} is not a list: ignored`);
    return undefined;
  }
  const out: PolicyEntry[] = [];
  for (const e of value) {
    if (isObject(e) && Object.keys(e).length === 1) {
      if (typeof e.serverName === "string") {
        out.push({ serverName: e.serverName });
        continue;
      }
      if (typeof e.serverUrl === "string") {
        out.push({ serverUrl: e.serverUrl });
        continue;
      }
      const c = e.serverCommand;
      if (Array.isArray(c) && c.length > 0 && c.every((x) => typeof x === "string")) {
        out.push({ serverCommand: c as string[] });
        continue;
      }
    }
    notes.push(
      `${where}: an entry of ${key} is not one of serverName, serverCommand, serverUrl: ignored`,
    );
  }
  return out;
}

/**
 * The lists that apply, from the settings files a config reads.
 *
 * @param sources Settings files (managed first), present or not.
 * @param notes Receives a line per malformed list or entry.
 * @returns The combined denylist and the allowlist that applies.
 */
export function readServerPolicy(sources: readonly PolicySource[], notes: string[]): ServerPolicy {
  const denied: PolicyEntry[] = [];
  const allowLists: { where: string; managed: boolean; list: PolicyEntry[] }[] = [];
  let managedOnly = false;
  for (const s of sources) {
    if (!isObject(s.value)) continue;
    denied.push(...entries(s.value.deniedMcpServers, s.where, "deniedMcpServers", notes) ?? []);
    const allow = entries(s.value.allowedMcpServers, s.where, "allowedMcpServers", notes);
    if (allow !== undefined) allowLists.push({ where: s.where, managed: s.managed, list: allow });
    if (s.managed && s.value.allowManagedMcpServersOnly === true) managedOnly = true;
  }
  const used = managedOnly ? allowLists.filter((l) => l.managed) : allowLists;
  if (used.length === 0) {
    return {
      denied,
      allowedFrom: managedOnly
        ? "allowManagedMcpServersOnly with no managed allowedMcpServers"
        : "",
    };
  }
  return {
    denied,
    allowed: used.flatMap((l) => l.list),
    allowedFrom: `allowedMcpServers in ${used.map((l) => l.where).join(", ")}${
      managedOnly ? " (allowManagedMcpServersOnly)" : ""
    }`,
  };
}

/** `text` with the known variables put in (unknown ones left as written). */
function expand(text: string, vars: Readonly<Record<string, string | undefined>>): string {
  return text.replace(VARIABLE_PATTERN, (whole, name: string, fallback: string | undefined) => {
    const v = Object.hasOwn(vars, name) ? vars[name] : undefined;
    if (fallback !== undefined && (v === undefined || v === "")) return fallback;
    return v ?? whole;
  });
}

/** Whether `url` matches a `serverUrl` pattern. */
export function urlMatches(pattern: string, url: string): boolean {
  const split = (u: string) => {
    const m = /^([^:/?#]*:\/\/[^/?#]*)(.*)$/s.exec(u);
    return m === null ? [u, ""] : [m[1], m[2]];
  };
  const [pHost, pRest] = split(pattern);
  const [uHostRaw, uRest] = split(url);
  // The host without case and without a trailing FQDN dot (before an optional port).
  const uHost = uHostRaw.replace(/\.(?=(:\d+)?$)/, "");
  const glob = (p: string) =>
    p.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  const hostOk = new RegExp(`^${glob(pHost)}$`, "is").test(uHost);
  // A pattern without a path matches every path; a URL without a path has the path `/`.
  return hostOk &&
    new RegExp(`^${glob(pRest === "" ? "*" : pRest)}$`, "s").test(uRest === "" ? "/" : uRest);
}

function matches(
  e: PolicyEntry,
  name: string,
  entry: ServerEntry,
  vars: Readonly<Record<string, string | undefined>>,
): boolean {
  if ("serverName" in e) return e.serverName === name;
  if ("serverCommand" in e) {
    if (entry.kind !== "stdio") return false;
    const actual = [entry.command, ...entry.args];
    return e.serverCommand.length === actual.length &&
      e.serverCommand.every((part, i) => expand(part, vars) === actual[i]);
  }
  return entry.kind === "remote" && urlMatches(expand(e.serverUrl, vars), entry.url);
}

/** How the policy treats one server. */
export interface PolicyVerdict {
  /** Whether it loads. */
  readonly allowed: boolean;
  /** Why not, when it does not. */
  readonly why?: string;
}

/**
 * Whether the policy lets a server load.
 *
 * @param policy The lists.
 * @param server Its name, entry, and whether it is the organization's own (`managedMcpServers`,
 *   or `managed-mcp.json`), which skips the allowlist unless its entry references a variable.
 * @param vars Variable values known for expanding both sides (settings `env`, the shell).
 * @returns The verdict, with the list that blocked it.
 */
export function checkServer(
  policy: ServerPolicy,
  server: {
    readonly name: string;
    readonly entry: ServerEntry;
    readonly organization: "managed-settings" | "managed-file" | false;
  },
  vars: Readonly<Record<string, string | undefined>>,
): PolicyVerdict {
  const known = Object.fromEntries(
    Object.entries(vars).filter((kv): kv is [string, string] => kv[1] !== undefined),
  );
  const entry = bindVariables(server.entry, known);
  if (policy.denied.some((e) => matches(e, server.name, entry, vars))) {
    return { allowed: false, why: "blocked by deniedMcpServers" };
  }
  const allowed = policy.allowed;
  if (allowed === undefined) return { allowed: true };
  if (server.organization === "managed-settings") return { allowed: true };
  if (server.organization === "managed-file" && entryVariables(server.entry).length === 0) {
    return { allowed: true };
  }
  const strict = entry.kind === "remote"
    ? allowed.filter((e) => "serverUrl" in e)
    : allowed.filter((e) => "serverCommand" in e);
  const candidates = strict.length > 0 ? strict : allowed.filter((e) => "serverName" in e);
  return candidates.some((e) => matches(e, server.name, entry, vars))
    ? { allowed: true }
    : { allowed: false, why: `not in ${policy.allowedFrom}` };
}
