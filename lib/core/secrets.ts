/**
 * Secrets: `${VAR}` expansion (servers configs, model registries) and the one rule for what a
 * secret is, with the ways mcpmeter removes secrets before anything is recorded, logged or returned.
 *
 * @module
 */

/** Text that replaces a secret wherever one is removed. */
export const REDACTED = "[REDACTED]";

/**
 * What makes a name secret, for environment variables, HTTP headers and URL query parameters
 * alike (case-insensitive): it contains `key`, `token`, `secret`, `passw` (password, passwd),
 * `credential`, `auth` (authorization, oauth), `cookie`, or the word `sig`/`signature` (signed
 * URLs). Examples: `GITHUB_TOKEN`, `x-api-key`, `Authorization`, `Set-Cookie`, `api_key`, `sig`.
 */
export const SECRET_NAME =
  /key|token|secret|passw|credential|auth|cookie|signature|(?:^|[^a-z])sig(?:[^a-z]|$)/i;

/** Secrets shorter than this many characters are never replaced: they would shred plain text. */
export const MIN_SECRET_CHARS = 4;

/**
 * Whether `name` (a variable, header or query-parameter name) names a secret by
 * {@linkcode SECRET_NAME}.
 *
 * @param name Any name.
 * @returns `true` for a secret-looking name.
 *
 * @example Usage
 * ```ts
 * import { isSecretName } from "./secrets.ts";
 * if (!isSecretName("GH_TOKEN") || isSecretName("HOME")) throw new Error("unexpected");
 * ```
 */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * The values of the entries whose names are secret by {@linkcode isSecretName}.
 *
 * @param vars Name → value (an environment, headers as a record, query parameters).
 * @returns The values (undefined ones dropped), in entry order.
 */
export function secretValuesOf(
  vars: Readonly<Record<string, string | undefined>> | Iterable<readonly [string, string]>,
): string[] {
  const entries = Symbol.iterator in vars
    ? [...vars as Iterable<readonly [string, string]>]
    : Object.entries(vars as Record<string, string | undefined>);
  return entries.filter(([k, v]) => v !== undefined && isSecretName(k)).map(([, v]) => v!);
}

/** Distinct secrets of at least {@linkcode MIN_SECRET_CHARS} characters, longest first. */
function usable(secrets: readonly string[]): string[] {
  return [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET_CHARS)
    .sort((a, b) => b.length - a.length);
}

/**
 * Replaces every occurrence of each secret with {@linkcode REDACTED}, longest secret first so a
 * secret that contains another is replaced whole. Secrets shorter than
 * {@linkcode MIN_SECRET_CHARS} are ignored.
 *
 * @param text Any text (a stderr tail, an error message, a request body).
 * @param secrets Secret values, any order, duplicates allowed.
 * @returns The text without the secrets.
 *
 * @example Usage
 * ```ts
 * import { redactText } from "./secrets.ts";
 * if (redactText("key=sk-12345", ["sk-12345"]) !== "key=[REDACTED]") throw new Error("unexpected");
 * ```
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of usable(secrets)) out = out.split(s).join(REDACTED);
  return out;
}

/**
 * `value` with every secret replaced in every string it holds (object keys are kept).
 *
 * @param value A JSON-like value (objects, arrays, strings, numbers, booleans, null).
 * @param secrets Secret values.
 * @returns `value` itself when no secret applies, else a redacted copy of the same shape.
 */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  const ordered = usable(secrets);
  if (ordered.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redactText(v, ordered);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}

/**
 * Headers as a plain object sorted by name (lower case): a header whose name is secret
 * ({@linkcode isSecretName}: `Authorization`, `X-Api-Key`, `Cookie`, ...) becomes
 * {@linkcode REDACTED} whole; any other keeps its value with the secrets replaced.
 *
 * @param headers Headers.
 * @param secrets Secret values.
 * @returns Name → value.
 */
export function redactHeaders(
  headers: Headers,
  secrets: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...headers.keys()].sort()) {
    out[name] = isSecretName(name) ? REDACTED : redactText(headers.get(name) ?? "", secrets);
  }
  return out;
}

/**
 * The secrets a URL may carry: its password and the values of query parameters with secret
 * names (hosted gateways often take the key in the URL), each raw and percent-encoded.
 *
 * @param url Any string; one that is not a URL carries none.
 * @returns Secret values (for {@linkcode redactText} / {@linkcode redactDeep}).
 */
export function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const values = [parsed.password, ...secretValuesOf(parsed.searchParams)];
  return usable(values.flatMap((v) => [v, encodeURIComponent(v)]));
}

/** A `${NAME}` or `${NAME:-default}` reference; group 1 the name, group 2 the default. */
export const VARIABLE_PATTERN: RegExp = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces every `${VAR}` / `${VAR:-default}` in `text`.
 *
 * @param text Text with references.
 * @param env Variables; only own properties count.
 * @param missing Called with the name of an unset variable that has no default; must throw.
 * @returns The expanded text.
 */
export function expandVariables(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  missing: (name: string) => never,
): string {
  return text.replace(VARIABLE_PATTERN, (_match, name: string, fallback: string | undefined) => {
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    if (fallback !== undefined) return value === undefined || value === "" ? fallback : value;
    return value ?? missing(name);
  });
}
