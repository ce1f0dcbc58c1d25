/**
 * The I/O edge of lib/audit: reading the clients' files from disk.
 *
 * @module
 */
import {
  discoverConfigs,
  type DiscoverOptions,
  type Discovery,
  readConfigFile,
} from "./discover.ts";

/**
 * Reads a file's text, or `undefined` when it does not exist (a folder in its place, or a path
 * through a file, counts as absent). Other failures (permission) throw, and so does a path that
 * leads to no regular file, unless `anyKind`: found by discovery, a FIFO would block the audit
 * forever and a link to `/dev/zero` fill the memory; given by the user (`--config <(jq ...)`),
 * a pipe is what they mean.
 *
 * @param path The file.
 * @param anyKind Read a pipe or device too.
 * @returns Its text, or `undefined`.
 */
export async function readIfPresent(path: string, anyKind = false): Promise<string | undefined> {
  try {
    const info = await Deno.stat(path);
    if (info.isDirectory) return undefined;
    if (!info.isFile && !anyKind) {
      throw new Error("not a regular file (a pipe, socket or device)");
    }
    return await Deno.readTextFile(path);
  } catch (error) {
    if (
      error instanceof Deno.errors.NotFound || error instanceof Deno.errors.IsADirectory ||
      error instanceof Deno.errors.NotADirectory
    ) return undefined;
    throw error;
  }
}

/**
 * Whether a file or folder exists (a broken link or a path through a file counts as absent).
 *
 * @param path The path.
 * @returns `true` when something is there.
 */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return false;
    }
    throw error;
  }
}

/** {@linkcode DiscoverOptions} without the reader: the disk is read. */
export type DiskDiscoverOptions = Omit<DiscoverOptions, "read" | "exists">;

/**
 * The MCP client configs under a home folder, read from disk (`discoverConfigs`), or, with
 * `files`, those files alone (`readConfigFile`), in the order given.
 *
 * @param options Home and project folders, platform, whether the account is this shell's.
 * @param files Config files given by the user (`--config`); none means discovery.
 * @returns The configs, the problems (one line each) and every path looked at.
 */
export async function findConfigs(
  options: DiskDiscoverOptions,
  files: readonly string[] = [],
): Promise<Discovery> {
  const withDisk: DiscoverOptions = {
    ...options,
    read: (path) => readIfPresent(path, files.includes(path)),
    exists: pathExists,
  };
  if (files.length === 0) return await discoverConfigs(withDisk);
  const parts = await Promise.all(files.map((f) => readConfigFile(f, withDisk)));
  return {
    configs: parts.flatMap((p) => p.configs),
    problems: parts.flatMap((p) => p.problems),
    searched: parts.flatMap((p) => p.searched),
  };
}
