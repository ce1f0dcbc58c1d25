/**
 * A flow's check, before any work, that it will be able to write its output.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { UsageError } from "../core/errors.ts";

/**
 * Checks, before any work, that `path` can be written: that it names a file, not a folder;
 * creates its parent folder and writes then removes a probe file beside it.
 *
 * @param path The file the flow will write.
 * @param flag The flag that named it, for the message (e.g. `--junit`).
 * @throws {UsageError} When `path` ends in `/` or is an existing folder, or when its folder
 *   cannot be created or written.
 */
export async function ensureWritable(path: string, flag: string): Promise<void> {
  const folder = (why: string) => `${flag} ${path}: ${why}; give the path of a file to write`;
  if (path.endsWith("/")) throw new UsageError(folder("names a folder (it ends in /)"));
  try {
    if ((await Deno.stat(path)).isDirectory) throw new UsageError(folder("is a folder"));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // Not there yet (the usual case), or not readable: the probe below says.
  }
  const dir = dirname(resolve(path));
  const probe = join(dir, `.mcpmeter-write-probe-${Deno.pid}`);
  try {
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(probe, "");
    await Deno.remove(probe);
  } catch (error) {
    throw new UsageError(`${flag} ${path}: cannot write there (${(error as Error).message})`);
  }
}
