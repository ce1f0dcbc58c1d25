/**
 * What a servers config hands its servers that must never be written or served: the one rule,
 * for captures, sessions, the proxy and the agent runner alike.
 *
 * @module
 */

import { expandServerEntry, type ServerEntry, type ServersConfig } from "./config.ts";
import {
  argSecrets,
  isSecretName,
  knownSecretsIn,
  referencedValues,
  secretValuesOf,
  urlSecrets,
} from "../core/secrets.ts";
import type { JsonValue } from "../catalog/types.ts";

/** Every string of a JSON value (a `files` entry's content). */
function strings(value: JsonValue | undefined): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]);
  }
  return [];
}

/**
 * The secrets of one server entry:
 *
 * - every value a `${VAR}` anywhere in the entry resolves to from `env` (command, args, env,
 *   cwd, url, headers, declared files), whatever the variable's name, but the plain ones
 *   (`HOME`, `PATH`, ...: `PLAIN_VARIABLES` in lib/core/secrets.ts);
 * - the values of secret-named `env` variables and headers (`GITHUB_TOKEN`, `Authorization`,
 *   with and without a scheme such as `Bearer `), literal or not;
 * - secrets in its arguments (`--token X`, `--api-key=X`, `TOKEN=X`) and URLs (a password, a
 *   secret-named query parameter);
 * - well-known credentials (`ghp_...`, `sk-...`, ...) written anywhere in it.
 *
 * @param entry The entry as written (unexpanded).
 * @param env The variables it is expanded from.
 * @returns Secret values (duplicates possible; short ones are ignored by the redaction).
 *
 * @example Usage
 * ```ts
 * import { parseServersConfig } from "./config.ts";
 * import { entrySecrets } from "./secrets.ts";
 * const [gh] = parseServersConfig({ mcpServers: { gh: {
 *   command: "gh-mcp", args: ["--auth", "${CREDS}"], env: { GITHUB_TOKEN: "ghp_literal1234" } } } }).servers;
 * const found = entrySecrets(gh, { CREDS: "c-99887766" });
 * if (!found.includes("c-99887766") || !found.includes("ghp_literal1234")) throw new Error();
 * ```
 */
export function entrySecrets(
  entry: ServerEntry,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const files = strings(entry.meta.files as JsonValue | undefined);
  const written = entry.kind === "stdio"
    ? [entry.command, ...entry.args, ...Object.values(entry.env), entry.cwd ?? "", ...files]
    : [entry.url, ...Object.values(entry.headers), ...files];
  let expanded: ServerEntry = entry;
  try {
    expanded = expandServerEntry(entry, env);
  } catch {
    // A missing variable fails the server at start; what is written literally still counts.
  }
  const out = [...referencedValues(written, env), ...written.flatMap(knownSecretsIn)];
  if (expanded.kind === "stdio") {
    out.push(...secretValuesOf(expanded.env), ...argSecrets([expanded.command, ...expanded.args]));
    for (const value of Object.values(expanded.env)) out.push(...knownSecretsIn(value));
  } else {
    for (const [name, value] of Object.entries(expanded.headers)) {
      if (isSecretName(name)) out.push(value, value.replace(/^\S+\s+/, ""));
      out.push(...knownSecretsIn(value));
    }
    out.push(...urlSecrets(expanded.url));
  }
  return out;
}

/**
 * The secrets of every entry of a servers config ({@linkcode entrySecrets}).
 *
 * @param config Parsed servers config (entries not yet expanded).
 * @param env Variables for `${VAR}` expansion.
 * @returns Secret values.
 */
export function serversSecrets(
  config: Pick<ServersConfig, "servers">,
  env: Readonly<Record<string, string | undefined>> = {},
): string[] {
  return config.servers.flatMap((entry) => entrySecrets(entry, env));
}
