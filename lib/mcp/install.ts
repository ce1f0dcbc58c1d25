/**
 * Installs pinned npm server packages into a scratch folder, one prefix per
 * package (`npm install --prefix <installDir>/<name>@<version> <name>@<version>`),
 * and reads what got installed (license, bin scripts).
 *
 * Each prefix is named by {@linkcode packageDirName}: the package spec with
 * `/` replaced by `+`, e.g. `@modelcontextprotocol+server-memory@2026.8.31`.
 * A package counts as present when `<prefix>/node_modules/<name>/package.json`
 * exists with the pinned version; present packages are not reinstalled.
 *
 * @module
 */

import { join, resolve } from "node:path";
import pickManifest from "npm-pick-manifest";
import { mapBounded } from "../core/pool.ts";
import type { StdioServerEntry } from "./config.ts";

/** One package to install. */
export interface PackageSpec {
  /** npm name, e.g. `@modelcontextprotocol/server-memory`. */
  readonly package: string;
  /** Exact version. */
  readonly version: string;
  /** Run install scripts (default false: `--ignore-scripts`). */
  readonly scripts?: boolean;
}

/** What {@linkcode readInstalledPackage} finds. */
export interface InstalledPackage {
  /** npm name. */
  readonly package: string;
  /** Installed version (equals the pinned one). */
  readonly version: string;
  /** The package's own folder (`<prefix>/node_modules/<name>`). */
  readonly packageDir: string;
  /** SPDX license from package.json (`license`, or `licenses[].type` joined with " OR "). */
  readonly license?: string;
  /** package.json `description`, trimmed, when it is a non-empty string. */
  readonly description?: string;
  /** package.json `keywords` that are non-empty strings, in file order (absent when none). */
  readonly keywords?: readonly string[];
  /** `bin` entries: name to absolute script path. */
  readonly bins: Readonly<Record<string, string>>;
}

/** Result of installing one package. */
export interface InstallResult {
  /** npm name. */
  readonly package: string;
  /** Pinned version. */
  readonly version: string;
  /** `present` (already installed), `installed`, or `failed`. */
  readonly status: "present" | "installed" | "failed";
  /** npm's last error line, when `failed`. */
  readonly message?: string;
  /** Wall time of the npm run, in ms (0 when present). */
  readonly ms: number;
}

/** Options of {@linkcode installPackages}. */
export interface InstallOptions {
  /** Folder holding one prefix per package. */
  readonly installDir: string;
  /** Parallel npm runs (default 2). */
  readonly concurrency?: number;
  /** npm executable (default `npm`). */
  readonly npm?: string;
  /** Time limit per npm run, in ms (default 600,000). */
  readonly timeoutMs?: number;
  /** Extra environment for npm, e.g. `npm_config_cache` to keep npm's cache in a chosen folder. */
  readonly env?: Readonly<Record<string, string>>;
  /** Called after each package. */
  readonly onProgress?: (result: InstallResult, done: number, total: number) => void;
}

/**
 * Prefix folder name of a pinned package.
 *
 * @param pkg npm package name.
 * @param version Exact version.
 * @returns e.g. `@scope+name@1.2.3`.
 *
 * @example
 * ```ts
 * import { packageDirName } from "./install.ts";
 * if (packageDirName("@a/b", "1.0.0") !== "@a+b@1.0.0") throw new Error();
 * ```
 */
export function packageDirName(pkg: string, version: string): string {
  return `${pkg}@${version}`.replaceAll("/", "+");
}

/**
 * The versions of a package installed in a folder (by {@linkcode installPackages}), highest
 * first: numeric dotted parts compared in order, a release above its prereleases.
 *
 * @param installDir Folder holding the prefixes.
 * @param pkg npm package name.
 * @returns The exact versions; none when the folder does not exist.
 */
export async function installedVersions(installDir: string, pkg: string): Promise<string[]> {
  const prefix = packageDirName(pkg, "");
  const found: string[] = [];
  try {
    for await (const e of Deno.readDir(installDir)) {
      const version = e.name.startsWith(prefix) ? e.name.slice(prefix.length) : "";
      if (version !== "" && await readInstalledPackage(installDir, pkg, version) !== undefined) {
        found.push(version);
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const parts = (v: string) => v.split("-")[0].split(".").map((n) => Number(n) || 0);
  return found.sort((a, b) => {
    const [x, y] = [parts(a), parts(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
    }
    return Number(a.includes("-")) - Number(b.includes("-")) || (a < b ? 1 : a > b ? -1 : 0);
  });
}

/**
 * Reads an installed package's package.json.
 *
 * @param installDir Folder holding the prefixes.
 * @param pkg npm package name.
 * @param version Exact version expected.
 * @returns The package's folder, license and bins; `undefined` when it is not
 *   installed or another version is.
 */
export async function readInstalledPackage(
  installDir: string,
  pkg: string,
  version: string,
): Promise<InstalledPackage | undefined> {
  const packageDir = join(resolve(installDir), packageDirName(pkg, version), "node_modules", pkg);
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(await Deno.readTextFile(join(packageDir, "package.json")));
  } catch {
    return undefined;
  }
  if (manifest.version !== version) return undefined;
  const bins: Record<string, string> = {};
  const unscoped = pkg.replace(/^@[^/]+\//, "");
  if (typeof manifest.bin === "string") bins[unscoped] = join(packageDir, manifest.bin);
  else if (typeof manifest.bin === "object" && manifest.bin !== null) {
    for (const [name, path] of Object.entries(manifest.bin as Record<string, unknown>)) {
      if (typeof path === "string") bins[name] = join(packageDir, path);
    }
  }
  const license = licenseOf(manifest);
  const description = typeof manifest.description === "string" ? manifest.description.trim() : "";
  const keywords = Array.isArray(manifest.keywords)
    ? manifest.keywords.filter((k): k is string => typeof k === "string" && k.trim() !== "")
      .map((k) => k.trim())
    : [];
  return {
    package: pkg,
    version,
    packageDir,
    ...(license === undefined ? {} : { license }),
    ...(description === "" ? {} : { description }),
    ...(keywords.length === 0 ? {} : { keywords }),
    bins,
  };
}

function licenseOf(manifest: Record<string, unknown>): string | undefined {
  const license = manifest.license;
  if (typeof license === "string" && license !== "") return license;
  if (typeof license === "object" && license !== null) {
    const type = (license as { type?: unknown }).type;
    if (typeof type === "string") return type;
  }
  if (Array.isArray(manifest.licenses)) {
    const types = manifest.licenses.map((l) => (l as { type?: unknown })?.type)
      .filter((t): t is string => typeof t === "string");
    if (types.length > 0) return types.join(" OR ");
  }
  return undefined;
}

/**
 * Picks the script `${BIN}` points at.
 *
 * @param installed What {@linkcode readInstalledPackage} returned.
 * @param bin Bin name requested by the config, if any.
 * @returns Absolute path of the bin script.
 * @throws {TypeError} When the package has no bins, the requested one is
 *   missing, or several exist and none is named like the package.
 */
export function resolveBin(installed: InstalledPackage, bin?: string): string {
  const names = Object.keys(installed.bins).sort();
  const label = `${installed.package}@${installed.version}`;
  if (bin !== undefined) {
    const path = installed.bins[bin];
    if (path === undefined) {
      throw new TypeError(
        `package ${label} has no bin ${JSON.stringify(bin)} (has: ${names.join(", ") || "none"})`,
      );
    }
    return path;
  }
  if (names.length === 0) throw new TypeError(`package ${label} declares no bin`);
  if (names.length === 1) return installed.bins[names[0]];
  const unscoped = installed.package.replace(/^@[^/]+\//, "");
  const own = installed.bins[unscoped];
  if (own !== undefined) return own;
  throw new TypeError(
    `package ${label} has several bins (${names.join(", ")}); name one with "bin"`,
  );
}

/**
 * The variables an entry's pinned npm package provides for `${VAR}` expansion:
 * `PACKAGE_DIR` (the package's folder) and `BIN` (its bin script, see
 * {@linkcode resolveBin}). `BIN` is left out when it cannot be resolved and
 * neither `command` nor `args` mention `${BIN}`.
 *
 * @param entry The (unexpanded) stdio entry; only `meta.package`,
 *   `meta.version`, `meta.bin`, `command` and `args` are read.
 * @param installDir Folder the packages were installed into (see
 *   {@linkcode installPackages}).
 * @returns `{}` when the entry names no package, else `{ PACKAGE_DIR, BIN? }`.
 * @throws {Error} When the package is not installed with its pinned version
 *   (`package <name>@<version> is not installed in <installDir>`).
 * @throws {TypeError} When `${BIN}` is used and the package has no matching
 *   bin (see {@linkcode resolveBin}).
 */
export async function packageVars(
  entry: Pick<StdioServerEntry, "command" | "args" | "meta">,
  installDir: string,
): Promise<Record<string, string>> {
  const pkg = entry.meta.package;
  if (pkg === undefined) return {};
  const version = entry.meta.version ?? "";
  const installed = await readInstalledPackage(installDir, pkg, version);
  if (installed === undefined) {
    throw new Error(`package ${pkg}@${version} is not installed in ${installDir}`);
  }
  const vars: Record<string, string> = { PACKAGE_DIR: installed.packageDir };
  try {
    vars.BIN = resolveBin(installed, entry.meta.bin);
  } catch (error) {
    if ([entry.command, ...entry.args].some((a) => a.includes("${BIN}"))) throw error;
  }
  return vars;
}

/**
 * Installs the packages that are not present yet, bounded-parallel, with
 * browser downloads disabled (`PUPPETEER_SKIP_DOWNLOAD=1`,
 * `PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1`). Failures are results, not throws.
 *
 * @param specs Packages to install (duplicates are installed once).
 * @param options Install folder, concurrency, npm path, time limit, progress.
 * @returns One result per distinct spec, in input order.
 * @throws {RangeError} When `concurrency` is not a positive integer.
 */
export async function installPackages(
  specs: readonly PackageSpec[],
  options: InstallOptions,
): Promise<InstallResult[]> {
  const unique = [...new Map(specs.map((s) => [`${s.package}@${s.version}`, s])).values()];
  await Deno.mkdir(options.installDir, { recursive: true });
  let done = 0;
  return await mapBounded(unique, options.concurrency ?? 2, async (spec) => {
    const result = await installOne(spec, options);
    done += 1;
    options.onProgress?.(result, done, unique.length);
    return result;
  });
}

async function installOne(spec: PackageSpec, options: InstallOptions): Promise<InstallResult> {
  const id = { package: spec.package, version: spec.version };
  if (await readInstalledPackage(options.installDir, spec.package, spec.version)) {
    return { ...id, status: "present", ms: 0 };
  }
  const prefix = join(options.installDir, packageDirName(spec.package, spec.version));
  const args = [
    "install",
    "--prefix",
    prefix,
    "--no-audit",
    "--no-fund",
    "--save-exact",
    "--loglevel=error",
    ...(spec.scripts === true ? [] : ["--ignore-scripts"]),
    `${spec.package}@${spec.version}`,
  ];
  // An addon built from source at install (sqlite3) needs Node's headers: node-gyp is pointed at
  // this machine's (/usr/include/node) unless npm_config_nodedir says where they are.
  const nodedir: Record<string, string> = spec.scripts === true &&
      Deno.env.get("npm_config_nodedir") === undefined &&
      options.env?.npm_config_nodedir === undefined &&
      await Deno.stat("/usr/include/node/node_api.h").then(() => true, () => false)
    ? { npm_config_nodedir: "/usr" }
    : {};
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 600_000);
  try {
    const out = await new Deno.Command(options.npm ?? "npm", {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: controller.signal,
      env: {
        PUPPETEER_SKIP_DOWNLOAD: "1",
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
        ...nodedir,
        ...options.env,
      },
    }).output();
    const ms = Math.round(performance.now() - started);
    if (out.success && await readInstalledPackage(options.installDir, spec.package, spec.version)) {
      return { ...id, status: "installed", ms };
    }
    const text = new TextDecoder().decode(out.stderr).trim().split("\n");
    const line = text.find((l) => /npm (error|ERR!) (code|404|notarget)/i.test(l)) ??
      text.at(-1) ?? "";
    return {
      ...id,
      status: "failed",
      message: controller.signal.aborted
        ? "npm install timed out"
        : `npm install failed (exit ${out.code}): ${line.trim() || "no message"}`,
      ms,
    };
  } catch (error) {
    return {
      ...id,
      status: "failed",
      message: `npm could not be run: ${(error as Error).message}`,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Options of {@linkcode resolveNpmVersion}. */
export interface ResolveVersionOptions {
  /** npm executable (default `npm`). */
  readonly npm?: string;
  /** Time limit of the `npm view` run, in ms (default 60,000). */
  readonly timeoutMs?: number;
  /** Extra environment for npm (see `InstallOptions.env`). */
  readonly env?: Readonly<Record<string, string>>;
  /** The Node.js version the server will run on, e.g. `v20.20.2` (default: `node --version`). */
  readonly nodeVersion?: string;
}

/** A version's manifest as `npm view NAME@RANGE --json` prints it: what npm's choice reads. */
export interface NpmVersionManifest {
  /** Exact version. */
  readonly version: string;
  /** `engines`, e.g. `{node: ">=22.5.0"}`. */
  readonly engines?: Readonly<Record<string, string>>;
  /** The deprecation message, when the version is deprecated. */
  readonly deprecated?: string | boolean;
  /** The package's dist-tags (npm view repeats them on every version). */
  readonly "dist-tags"?: Readonly<Record<string, string>>;
}

/**
 * The version npm installs for `name@wanted` on `nodeVersion`, among `manifests`, by npm's own
 * rule (npm-pick-manifest, the module npm and npx resolve with): a dist-tag gives exactly its
 * version; no version, or a range, gives the `latest` tag's version when it is in range, not
 * deprecated and its `engines.node` accepts this Node; else the highest version in range that is
 * not deprecated and accepts this Node, then one that accepts it, then the highest.
 *
 * @param name npm package name.
 * @param wanted What the config asked for: `undefined` (no version), a dist-tag or a range.
 * @param manifests The versions `npm view NAME@RANGE --json` lists for that range.
 * @param nodeVersion The Node.js version, e.g. `v20.20.2`.
 * @returns The exact version, or `undefined` when none of `manifests` fits.
 */
export function pickNpmVersion(
  name: string,
  wanted: string | undefined,
  manifests: readonly NpmVersionManifest[],
  nodeVersion: string,
): string | undefined {
  const packument = {
    name,
    versions: Object.fromEntries(manifests.map((m) => [m.version, m])),
    "dist-tags": manifests.find((m) => m["dist-tags"] !== undefined)?.["dist-tags"] ?? {},
  };
  try {
    return (pickManifest(packument, wanted ?? "*", { nodeVersion }) as NpmVersionManifest).version;
  } catch {
    return undefined;
  }
}

let localNode: Promise<string> | undefined;

/** `node --version` of the PATH's node (the one servers are started with), asked once. */
function localNodeVersion(): Promise<string> {
  localNode ??= new Deno.Command("node", { args: ["--version"], stdout: "piped", stderr: "null" })
    .output()
    .then((out) => new TextDecoder().decode(out.stdout).trim())
    .catch(() => "");
  return localNode;
}

/**
 * The one exact version npm would install for `name@range` on this machine's Node.js:
 * `npm view NAME@RANGE --json` lists the versions in range (all of them when no version is
 * asked), and {@linkcode pickNpmVersion} picks as npm does, so a package whose newest release
 * needs a newer Node resolves to the newest one this Node runs, as `npx -y NAME` would.
 *
 * @param name npm package name.
 * @param range What the config asked for: `undefined` (no version), a dist-tag or a semver range.
 * @param options npm path, time limit, Node version.
 * @returns The exact version, e.g. `2026.1.14`.
 * @throws {Error} When npm cannot be run, times out, or finds no matching
 *   version (`npm view ... found no version`), with npm's own error line.
 */
export async function resolveNpmVersion(
  name: string,
  range: string | undefined,
  options: ResolveVersionOptions = {},
): Promise<string> {
  // `npm view NAME@*` prints the latest version alone, so "any version" is asked as a range
  // every version satisfies.
  const any = range === undefined || range.trim() === "" || range.trim() === "*";
  const spec = `${name}@${any ? ">=0.0.0-0" : range}`;
  const asked = `${name}@${range ?? "latest"}`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 60_000);
  try {
    const nodeVersion = options.nodeVersion ?? await localNodeVersion();
    const out = await new Deno.Command(options.npm ?? "npm", {
      args: ["view", spec, "--json", "--loglevel=error"],
      ...(options.env === undefined ? {} : { env: options.env }),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: controller.signal,
    }).output();
    const text = new TextDecoder().decode(out.stdout).trim();
    if (out.success && text !== "") {
      const parsed: unknown = JSON.parse(text);
      const manifests = (Array.isArray(parsed) ? parsed : [parsed]).filter((
        m,
      ): m is NpmVersionManifest => typeof m?.version === "string");
      const picked = pickNpmVersion(name, any ? undefined : range, manifests, nodeVersion);
      if (picked !== undefined) return picked;
    }
    if (controller.signal.aborted) throw new Error(`npm view ${asked} timed out`);
    const err = new TextDecoder().decode(out.stderr).trim().split("\n")
      .find((l) => /npm (error|ERR!)/i.test(l)) ?? "";
    throw new Error(`npm view ${asked} found no version${err === "" ? "" : ` (${err.trim()})`}`);
  } catch (error) {
    if (controller.signal.aborted) throw new Error(`npm view ${asked} timed out`);
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(`npm could not be run to resolve ${asked}: ${error.message}`);
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
