/**
 * Secrets: `${VAR}` expansion (servers configs, model registries), the one rule for what a
 * secret is, and the one mechanism that removes them: a {@linkcode Redactor} holds every value
 * a process resolved from a secret, and every boundary where bytes leave it (run files,
 * transcripts, wire logs, caches, HTTP answers and event streams, progress and error lines)
 * passes what it writes through that redactor. JSON is redacted string by string (numbers and
 * structure untouched); text in every form a secret can take there (as is, JSON-escaped,
 * percent-encoded, HTML-escaped).
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
 * Whether a value is redacted wherever it appears (a {@linkcode Redactor}): at least 8
 * characters, not only digits (`20240101` would shred figures), and not a word of letters
 * alone unless it has 12 or more (`ollama`, a local server's placeholder key, is the name of a
 * model too). Every credential a provider or a registry issues passes; a value that fails would
 * corrupt ids and text wherever it was replaced, and guards nothing.
 *
 * @param value A candidate secret.
 * @returns `true` when it is redacted.
 *
 * @example Usage
 * ```ts
 * import { usableSecret } from "./secrets.ts";
 * if (!usableSecret("sk-12345678") || usableSecret("ollama") || usableSecret("12345678")) {
 *   throw new Error();
 * }
 * ```
 */
export function usableSecret(value: string): boolean {
  return value.length >= 8 && !/^\d+$/.test(value) &&
    !(/^[A-Za-z]+$/.test(value) && value.length < 12);
}

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

/**
 * Shapes of well-known credentials, recognized whatever name holds them (an argument, a value
 * under a name that does not look secret): GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`,
 * `github_pat_`), GitLab (`glpat-`), OpenAI and Anthropic (`sk-...`), Slack (`xoxb-`, ...), AWS
 * access keys (`AKIA...`), Google API keys (`AIza...`), Stripe (`sk_live_`, `rk_live_`), and
 * JSON Web Tokens.
 */
export const KNOWN_SECRET_SHAPE: RegExp = new RegExp(
  [
    "gh[pousr]_[A-Za-z0-9]{20,}",
    "github_pat_[A-Za-z0-9_]{20,}",
    "glpat-[A-Za-z0-9_-]{20,}",
    "sk-[A-Za-z0-9_-]{16,}",
    "xox[abprs]-[A-Za-z0-9-]{10,}",
    "AKIA[0-9A-Z]{16}",
    "AIza[0-9A-Za-z_-]{35}",
    "[rs]k_live_[A-Za-z0-9]{16,}",
    "eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}",
  ].join("|"),
  "g",
);

/**
 * The well-known credentials ({@linkcode KNOWN_SECRET_SHAPE}) found in a text.
 *
 * @param text Any text (an argument, a value).
 * @returns The credentials found, in order.
 */
export function knownSecretsIn(text: string): string[] {
  return [...text.matchAll(KNOWN_SECRET_SHAPE)].map((m) => m[0]);
}

/**
 * The secrets in a command line: the value after a flag whose name is secret (`--token X`,
 * `--api-key=X`), the value of a `NAME=VALUE` argument whose name is secret, secrets a URL
 * argument carries ({@linkcode urlSecrets}), and well-known credentials anywhere
 * ({@linkcode knownSecretsIn}).
 *
 * @param args Arguments, expanded.
 * @returns Secret values.
 *
 * @example Usage
 * ```ts
 * import { argSecrets } from "./secrets.ts";
 * const found = argSecrets(["--api-key", "k-123456", "--verbose", "TOKEN=t-98765"]);
 * if (found.join() !== "k-123456,t-98765") throw new Error(found.join());
 * ```
 */
export function argSecrets(args: readonly string[]): string[] {
  const out: string[] = [];
  args.forEach((arg, i) => {
    const flag = /^--?([A-Za-z][\w.-]*)(?:=(.*))?$/s.exec(arg);
    if (flag && isSecretName(flag[1])) {
      if (flag[2] !== undefined) out.push(flag[2]);
      else if (i + 1 < args.length && !args[i + 1].startsWith("-")) out.push(args[i + 1]);
    }
    const assign = /^([A-Za-z_][A-Za-z0-9_]*)=(.+)$/s.exec(arg);
    if (assign && isSecretName(assign[1])) out.push(assign[2]);
    out.push(...urlSecrets(arg), ...knownSecretsIn(arg));
  });
  return out;
}

/**
 * Names of variables that never hold a secret and that configs commonly reference
 * (`${HOME}/data`): their values are not redacted though a config expands them.
 */
export const PLAIN_VARIABLES: ReadonlySet<string> = new Set([
  "HOME",
  "PATH",
  "USER",
  "LOGNAME",
  "SHELL",
  "PWD",
  "TMPDIR",
  "TEMP",
  "TMP",
  "LANG",
  "TERM",
  "USERPROFILE",
  "APPDATA",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_CACHE_HOME",
]);

/**
 * The values a config resolved from variables: each `${NAME}` in `texts` that `env` defines,
 * except {@linkcode PLAIN_VARIABLES}. Any variable a config names may hold a key, whatever its
 * name (`--auth ${MY_CREDS}`).
 *
 * @param texts Texts as written (with `${...}` references).
 * @param env The variables they were expanded from.
 * @returns The values.
 */
export function referencedValues(
  texts: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const out: string[] = [];
  for (const text of texts) {
    for (const m of text.matchAll(VARIABLE_PATTERN)) {
      const value = Object.hasOwn(env, m[1]) ? env[m[1]] : undefined;
      if (value === undefined || PLAIN_VARIABLES.has(m[1])) continue;
      // A location is configuration, not a credential: a path, or a URL (its password and
      // secret query parameters are taken by urlSecrets).
      if (!isSecretName(m[1]) && (/^[/.~]/.test(value) || URL.canParse(value))) {
        out.push(...urlSecrets(value));
        continue;
      }
      out.push(value);
    }
  }
  return out;
}

/**
 * The secrets of an environment that no config needs to name: the values of variables with
 * secret names that look like credentials ({@linkcode usableSecret}, no whitespace:
 * `TOKENIZERS_PARALLELISM=false` is no secret), and well-known credentials under any name. A tool that echoes its environment, or a model that repeats a key it was never sent,
 * is redacted as well.
 *
 * @param env Name → value.
 * @returns Secret values.
 */
export function environmentSecrets(
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (isSecretName(name) && usableSecret(value) && !/\s/.test(value)) out.push(value);
    out.push(...knownSecretsIn(value));
  }
  return out;
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
  const ordered = usable(secrets);
  let out = text;
  for (const s of ordered) out = out.split(s).join(REDACTED);
  return maskCutEdges(out, ordered);
}

/** A run of text just before a clip mark `...` (a quote between them allowed). */
const BEFORE_CUT = /[^\s"'`]+(?=["'`]?\.\.\.)/g;
/** A run of text just after a clip mark `...` (a quote between them allowed). */
const AFTER_CUT = /(?<=\.\.\.["'`]?)[^\s"'`]+/g;

/**
 * `text` with the part of a secret that a clip kept at its cut replaced by {@linkcode REDACTED}:
 * a message or a stderr tail cut to a length (`clip`, V8's `JSON.parse` excerpt of 10
 * characters, the tail of a stream) can keep a secret's first or last characters, which no
 * longer match the whole secret. A run of text next to `...` is masked where it ends with a
 * secret's first characters (before the mark), starts with its last ones (after it), or lies
 * inside it; at least {@linkcode MIN_SECRET_CHARS} of them, so a shorter remnant stays.
 */
function maskCutEdges(text: string, forms: readonly string[]): string {
  if (forms.length === 0 || !text.includes("...")) return text;
  const longest = (run: string, match: (f: string, part: string) => boolean, end: boolean) => {
    for (let k = run.length; k >= MIN_SECRET_CHARS; k--) {
      const part = end ? run.slice(run.length - k) : run.slice(0, k);
      if (forms.some((f) => match(f, part))) return k;
    }
    return 0;
  };
  return text
    .replace(BEFORE_CUT, (run) => {
      const k = longest(
        run,
        (f, part) => f.startsWith(part) || (part === run && f.includes(run)),
        true,
      );
      return k === 0 ? run : `${run.slice(0, run.length - k)}${REDACTED}`;
    })
    .replace(AFTER_CUT, (run) => {
      const k = longest(
        run,
        (f, part) => f.endsWith(part) || (part === run && f.includes(run)),
        false,
      );
      return k === 0 ? run : `${REDACTED}${run.slice(k)}`;
    });
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
  return mapStrings(value, (s) => redactText(s, ordered), false) as T;
}

/**
 * A copy of a JSON-like value with `text` applied to every string (and to every object key
 * when `keys`), the shape and other values kept. A work list, not recursion: a server's tool
 * schema nested thousands of levels deep overflowed the call stack here and stopped the run.
 */
function mapStrings(value: unknown, text: (s: string) => string, keys: boolean): unknown {
  const todo: [Record<string, unknown> | unknown[], Record<string, unknown> | unknown[]][] = [];
  const copy = (v: unknown): unknown => {
    if (typeof v === "string") return text(v);
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> | unknown[] = Array.isArray(v) ? [] : {};
    todo.push([v as Record<string, unknown> | unknown[], out]);
    return out;
  };
  const root = copy(value);
  while (todo.length > 0) {
    const [from, to] = todo.pop()!;
    if (Array.isArray(from)) {
      for (let i = 0; i < from.length; i++) (to as unknown[])[i] = copy(from[i]);
      continue;
    }
    for (const [k, x] of Object.entries(from)) {
      // defineProperty: an own "__proto__" key stays a key, as Object.fromEntries keeps it.
      Object.defineProperty(to, keys ? text(k) : k, {
        value: copy(x),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return root;
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

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** The forms a secret takes in the text mcpmeter writes: as is, and each escaping that changes it. */
function forms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const html = secret.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
  const htmlNumeric = secret.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return [secret, json, encodeURIComponent(secret), html, htmlNumeric, secret.replace(/"/g, '""')];
}

/**
 * Every value a process resolved from a secret, and the one way it is kept out of what the
 * process writes or serves. Secrets are added as they are resolved (a run's model keys and
 * server credentials, a workbench's environment); each boundary calls {@linkcode Redactor.text}
 * or {@linkcode Redactor.json} on what it writes, {@linkcode Redactor.jsonText} on JSON it
 * receives already serialized, or pipes a stream through {@linkcode Redactor.eventStream}.
 * Values that fail {@linkcode usableSecret} are ignored (they would shred text and ids).
 *
 * @example Usage
 * ```ts
 * import { Redactor } from "./secrets.ts";
 * const r = new Redactor(["sk-12345"]);
 * if (r.text("key sk-12345") !== "key [REDACTED]") throw new Error();
 * if (r.jsonText('{"n":12345,"s":"sk-12345"}') !== '{"n":12345,"s":"[REDACTED]"}') throw new Error();
 * ```
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  #forms: string[] | undefined;

  /**
   * A redactor that knows these secret values (more can be added later).
   *
   * @param secrets Initial secret values.
   */
  constructor(secrets: Iterable<string> = []) {
    this.add(secrets);
  }

  /**
   * Adds secret values (duplicates and those {@linkcode usableSecret} refuses are ignored).
   *
   * @param secrets Values.
   * @returns This redactor.
   */
  add(secrets: Iterable<string>): this {
    for (const s of secrets) {
      if (usableSecret(s) && !this.#secrets.has(s)) {
        this.#secrets.add(s);
        this.#forms = undefined;
      }
    }
    return this;
  }

  /** The secret values held (for a redactor built from another's). */
  get secrets(): readonly string[] {
    return [...this.#secrets];
  }

  /** Every form of every secret, longest first (a secret inside another is replaced whole). */
  #all(): string[] {
    this.#forms ??= [...new Set([...this.#secrets].flatMap(forms))]
      .filter((f) => f.length >= MIN_SECRET_CHARS)
      .sort((a, b) => b.length - a.length);
    return this.#forms;
  }

  /**
   * `text` with every form of every secret replaced by {@linkcode REDACTED}.
   *
   * @param text Any text.
   * @returns The text without secrets.
   */
  text(text: string): string {
    let out = text;
    const forms = this.#all();
    for (const f of forms) if (out.includes(f)) out = out.split(f).join(REDACTED);
    return maskCutEdges(out, forms);
  }

  /**
   * `value` with every string in it (object keys too) redacted; numbers, booleans and the shape
   * are kept.
   *
   * @param value A JSON-like value.
   * @returns `value` itself when no string holds a secret, else a redacted copy.
   */
  json<T>(value: T): T {
    if (this.#secrets.size === 0) return value;
    return mapStrings(value, (s) => this.text(s), true) as T;
  }

  /**
   * Serialized JSON (one document, indented or not, or JSON Lines) redacted string by string: a
   * text holding no form of a secret is returned as is; otherwise each document is parsed,
   * redacted with {@linkcode Redactor.json} and written back the same way (two-space indent when
   * it was indented, one line per document for JSON Lines, the final newline kept). Text that is
   * not JSON is redacted as text.
   *
   * @param text JSON or JSON Lines.
   * @returns The redacted text.
   */
  jsonText(text: string): string {
    if (!this.#all().some((f) => text.includes(f))) return text;
    const body = text.endsWith("\n") ? text.slice(0, -1) : text;
    const parsed = (doc: string): { value: unknown } | undefined => {
      try {
        return { value: JSON.parse(doc) };
      } catch {
        return undefined;
      }
    };
    const whole = parsed(body);
    const out = whole !== undefined
      ? JSON.stringify(this.json(whole.value), null, /^[\[{]\n /.test(body) ? 2 : undefined)
      : body.split("\n").map((line) => {
        const doc = line.trim() === "" ? undefined : parsed(line);
        return doc === undefined ? this.text(line) : JSON.stringify(this.json(doc.value));
      }).join("\n");
    return text.endsWith("\n") ? out + "\n" : out;
  }

  /**
   * A transform for a text/event-stream (server-sent events): each event's `data:` lines are
   * redacted as JSON when they parse, as text otherwise; everything else passes as is. Events
   * are held until their blank line, so a secret split across chunks is still found.
   *
   * @returns The transform (bytes in, bytes out).
   */
  eventStream(): TransformStream<Uint8Array, Uint8Array> {
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let buffer = "";
    const event = (block: string) =>
      block.split("\n").map((line) => {
        if (!line.startsWith("data:")) return line;
        const data = line.slice(line.startsWith("data: ") ? 6 : 5);
        return `data: ${this.jsonText(data)}`;
      }).join("\n");
    return new TransformStream({
      transform(chunk, controller) {
        buffer += decoder.decode(chunk, { stream: true });
        const end = buffer.lastIndexOf("\n\n");
        if (end < 0) return;
        controller.enqueue(encoder.encode(event(buffer.slice(0, end + 2))));
        buffer = buffer.slice(end + 2);
      },
      flush(controller) {
        buffer += decoder.decode();
        if (buffer !== "") controller.enqueue(encoder.encode(event(buffer)));
      },
    });
  }
}
