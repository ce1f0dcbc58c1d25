/**
 * Writing a file whole or not at all (private to lib).
 *
 * @module
 */

/**
 * Writes a file atomically: the text goes to a temporary file beside it, which is then renamed
 * over `path`, so a reader (or a run killed mid-write) never sees half a file, and a failed
 * write leaves the old content and no temporary file.
 *
 * @param path Destination.
 * @param text Content (UTF-8).
 * @throws {Deno.errors.NotFound} When the folder does not exist; any error of the write or the
 *   rename, after the temporary file is removed.
 */
export async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp-${crypto.randomUUID()}`;
  try {
    await Deno.writeTextFile(tmp, text);
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}
