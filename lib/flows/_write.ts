/**
 * A flow's check, before any work, that it will be able to write its output.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { UsageError } from "../_errors.ts";

/**
 * Checks, before any work, that `path` can be written: creates its parent folder and writes then
 * removes a probe file beside it.
 *
 * @param path The file the flow will write.
 * @param flag The flag that named it, for the message (e.g. `--junit`).
 * @throws {UsageError} When the folder cannot be created or written.
 */
export async function ensureWritable(path: string, flag: string): Promise<void> {
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
