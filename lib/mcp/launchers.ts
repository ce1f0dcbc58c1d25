/**
 * Package-runner launches in pasted configs: `npx -y @scope/server`, `pnpm dlx`,
 * `bunx`, `yarn dlx`, `npm exec`, and the Python runners `uvx`, `uv tool run`,
 * `pipx run` (also behind `cmd /c` as Windows configs write them).
 *
 * Servers are captured without network, so a runner that downloads its
 * package at start cannot work there. An npm launch is rewritten into a pinned
 * package entry (`package`, `version`, `command: "node"`, `args: ["${BIN}", ...]`)
 * that the capture installs before the offline start; a Python launch cannot
 * be installed here (PyPI is not reachable) and fails at once with the reason.
 *
 * Accepted shapes (the first non-option argument is the package spec, the rest
 * go to the server):
 * - `npx [-y|--yes] [-q] SPEC ARGS...`, `npx -p|--package[=]SPEC BIN ARGS...`
 * - `npm exec [--yes] [--package=SPEC] [--] SPEC ARGS...`
 * - `pnpm dlx SPEC ARGS...`, `pnpx SPEC ARGS...`, `yarn dlx SPEC ARGS...`
 * - `bunx [--bun] SPEC ARGS...`, `bun x SPEC ARGS...`
 * - `uvx [--from SPEC] NAME ARGS...`, `uv tool run ...`, `pipx run SPEC ARGS...`
 * - any of these after `cmd /c` (or `cmd.exe /c`).
 *
 * SPEC is `name`, `@scope/name`, optionally with `@VERSION` (an exact version
 * pins it; `latest`, a tag or a range is resolved to one exact version and
 * warned about).
 *
 * @module
 */
import type { StdioServerEntry } from "./config.ts";

/** The ecosystem a runner downloads from. */
export type LauncherEcosystem = "npm" | "pypi";

/** A recognised package-runner launch. */
export interface Launch {
  /** The runner as written, e.g. `npx`, `pnpm dlx`, `uvx`. */
  readonly runner: string;
  /** Where the runner would download the package from. */
  readonly ecosystem: LauncherEcosystem;
  /** The package spec as written, e.g. `@modelcontextprotocol/server-memory@latest`. */
  readonly spec: string;
  /** npm package name, when the spec is a registry package (npm only). */
  readonly package?: string;
  /** The version part of the spec (`1.2.3`, `latest`, `^1`), when one is written. */
  readonly requested?: string;
  /** True when `requested` is one exact version. */
  readonly pinned: boolean;
  /** The bin to run, when the launch names it (`npx -p SPEC BIN`). */
  readonly bin?: string;
  /** Arguments for the server itself. */
  readonly args: readonly string[];
}

const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const NPM_NAME = /^(?:@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*$/i;

/** Splits `@scope/name@1.2.3` into name and version (`undefined` when not a registry spec). */
export function splitNpmSpec(
  spec: string,
): { readonly name: string; readonly version?: string } | undefined {
  const at = spec.indexOf("@", spec.startsWith("@") ? 1 : 0);
  const name = at === -1 ? spec : spec.slice(0, at);
  const version = at === -1 ? undefined : spec.slice(at + 1);
  if (!NPM_NAME.test(name) || version === "") return undefined;
  return version === undefined ? { name } : { name, version };
}

function baseName(command: string): string {
  return command.replace(/\\/g, "/").split("/").pop()!.replace(/\.(cmd|exe|ps1)$/i, "");
}

/** Options (of npx / npm exec) that take a value. */
const VALUE_OPTIONS = new Set(["-p", "--package", "-c", "--call", "--registry", "--cache"]);

function npmLaunch(runner: string, argv: readonly string[]): Launch | undefined {
  let spec: string | undefined;
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      i++;
      break;
    }
    if (!a.startsWith("-")) break;
    const [flag, inline] = a.includes("=")
      ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
      : [a, undefined];
    if (flag === "-p" || flag === "--package") {
      spec = inline ?? argv[++i];
    } else if (VALUE_OPTIONS.has(flag) && inline === undefined) {
      i++;
    }
  }
  const rest = argv.slice(i);
  // With --package the first positional is the bin to run; without, it is the package.
  const bin = spec !== undefined ? rest[0] : undefined;
  spec ??= rest[0];
  if (spec === undefined) return undefined;
  const args = rest.slice(1);
  const split = splitNpmSpec(spec);
  return {
    runner,
    ecosystem: "npm",
    spec,
    ...(split === undefined ? {} : { package: split.name }),
    ...(split?.version === undefined ? {} : { requested: split.version }),
    pinned: split?.version !== undefined && EXACT_VERSION.test(split.version),
    ...(bin === undefined ? {} : { bin }),
    args,
  };
}

function pythonLaunch(runner: string, argv: readonly string[]): Launch | undefined {
  let from: string | undefined;
  let i = 0;
  for (; i < argv.length && argv[i].startsWith("-"); i++) {
    if (argv[i] === "--from" || argv[i] === "--with" || argv[i] === "--python") {
      if (argv[i] === "--from") from = argv[i + 1];
      i++;
    } else if (argv[i].startsWith("--from=")) from = argv[i].slice(7);
  }
  const name = argv[i];
  if (name === undefined) return undefined;
  const spec = from ?? name;
  const version = /==([^=]+)$/.exec(spec)?.[1] ?? /@([^@/]+)$/.exec(spec)?.[1];
  return {
    runner,
    ecosystem: "pypi",
    spec,
    ...(version === undefined ? {} : { requested: version }),
    pinned: version !== undefined && EXACT_VERSION.test(version),
    args: argv.slice(i + 1),
  };
}

/**
 * Recognises a package-runner launch in a stdio entry.
 *
 * @param entry The stdio entry (before or after `${VAR}` expansion).
 * @returns The launch, or `undefined` when the command is not a package runner
 *   (or a runner with no package argument).
 *
 * @example Usage
 * ```ts
 * import { parseLaunch } from "./launchers.ts";
 * const launch = parseLaunch({
 *   command: "npx",
 *   args: ["-y", "@modelcontextprotocol/server-filesystem@2026.1.14", "/tmp"],
 * });
 * if (launch?.package !== "@modelcontextprotocol/server-filesystem" || !launch.pinned ||
 *   launch.args.join() !== "/tmp") throw new Error(JSON.stringify(launch));
 * ```
 */
export function parseLaunch(
  entry: Pick<StdioServerEntry, "command" | "args">,
): Launch | undefined {
  let command = baseName(entry.command);
  let argv = entry.args;
  if ((command === "cmd") && argv.length > 1 && /^\/c$/i.test(argv[0])) {
    command = baseName(argv[1]);
    argv = argv.slice(2);
  }
  switch (command) {
    case "npx":
      return npmLaunch("npx", argv);
    case "pnpx":
      return npmLaunch("pnpx", argv);
    case "bunx":
      return npmLaunch("bunx", argv.filter((a) => a !== "--bun"));
    case "npm":
      return argv[0] === "exec" || argv[0] === "x"
        ? npmLaunch(`npm ${argv[0]}`, argv.slice(1))
        : undefined;
    case "pnpm":
    case "yarn":
      return argv[0] === "dlx" ? npmLaunch(`${command} dlx`, argv.slice(1)) : undefined;
    case "bun":
      return argv[0] === "x" ? npmLaunch("bun x", argv.slice(1)) : undefined;
    case "uvx":
      return pythonLaunch("uvx", argv);
    case "uv":
      return argv[0] === "tool" && argv[1] === "run"
        ? pythonLaunch("uv tool run", argv.slice(2))
        : undefined;
    case "pipx":
      return argv[0] === "run" ? pythonLaunch("pipx run", argv.slice(1)) : undefined;
    default:
      return undefined;
  }
}

/**
 * Why a launch cannot be installed before an offline start, or `undefined`
 * when it can (an npm registry package).
 *
 * @param launch A recognised launch.
 * @returns A one-line reason, e.g. for `uvx`: the package comes from PyPI.
 *
 * @example Usage
 * ```ts
 * import { parseLaunch, uninstallableReason } from "./launchers.ts";
 * const uvx = parseLaunch({ command: "uvx", args: ["mcp-server-fetch"] })!;
 * if (uninstallableReason(uvx) === undefined) throw new Error("uvx needs PyPI");
 * ```
 */
export function uninstallableReason(launch: Launch): string | undefined {
  if (launch.ecosystem === "pypi") {
    return `${launch.runner} ${launch.spec} downloads a Python package from PyPI at start, ` +
      `which mcpmeter cannot install before the offline start; install the server yourself ` +
      `and give its command (e.g. "command": "/path/to/venv/bin/${
        launch.spec.replace(/[=@].*$/, "")
      }")`;
  }
  if (launch.package === undefined) {
    return `${launch.runner} ${launch.spec} is not an npm registry package (name or @scope/name, ` +
      `optionally @version); mcpmeter installs registry packages only`;
  }
  return undefined;
}

/**
 * The entry rewritten to run an installed, pinned package: `package` and
 * `version` set (so the capture installs it first), `command: "node"` and
 * `args: ["${BIN}", ...server args]`, `bin` set when the launch named one.
 * Everything else (env, cwd, files, timeouts, notes) is kept.
 *
 * @param entry The original stdio entry.
 * @param launch Its launch (an npm registry package).
 * @param version The exact version to pin (the requested one, or the one resolved).
 * @returns A new entry; the original is not modified.
 * @throws {TypeError} When the launch has no npm package name.
 */
export function pinLaunch(
  entry: StdioServerEntry,
  launch: Launch,
  version: string,
): StdioServerEntry {
  if (launch.package === undefined) {
    throw new TypeError(`Cannot pin ${launch.spec}: not an npm registry package`);
  }
  return {
    ...entry,
    command: "node",
    args: ["${BIN}", ...launch.args],
    meta: {
      ...entry.meta,
      package: launch.package,
      version,
      ...(launch.bin === undefined ? {} : { bin: launch.bin }),
    },
  };
}
