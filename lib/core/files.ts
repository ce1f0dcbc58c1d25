/**
 * Whole-file I/O: write a file whole or not at all (`writeAtomic`), read one into a single
 * buffer (`readWhole`, `readRest`).
 *
 * @module
 */

/**
 * Writes a file atomically: the text goes to a temporary file beside it, which is then renamed
 * over `path`, so a reader (or a run killed mid-write) never sees half a file, and a failed
 * write leaves the old content and no temporary file.
 *
 * @param path Destination.
 * @param text Content (UTF-8), or its chunks in order (written as they come).
 * @throws {Deno.errors.NotFound} When the folder does not exist; any error of the write or the
 *   rename, after the temporary file is removed.
 */
export async function writeAtomic(path: string, text: string | Iterable<string>): Promise<void> {
  const tmp = `${path}.tmp-${crypto.randomUUID()}`;
  try {
    await Deno.writeTextFile(tmp, typeof text === "string" ? text : ReadableStream.from(text));
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/**
 * Reads a file's bytes into one buffer allocated once from the file's size, then read into in
 * place (`Deno.readFile` gives the same bytes more slowly on large catalogs: docs/performance.md,
 * "Reading catalog files"). A file whose size `stat` does not tell (a pipe, a device) or that
 * grows while it is read goes on being read from the same handle, in chunks; one that shrinks
 * gives the bytes there were.
 *
 * @param path File path.
 * @returns The bytes.
 * @throws Whatever `Deno.open`, `stat` or `read` throw (e.g. {@linkcode Deno.errors.NotFound}).
 */
export async function readWhole(path: string): Promise<Uint8Array> {
  const file = await Deno.open(path, { read: true });
  try {
    const { size } = await file.stat();
    // One byte more than the size, so a file that has grown since `stat` shows it.
    const bytes = new Uint8Array(size + 1);
    let filled = 0;
    while (filled < bytes.length) {
      const n = await file.read(bytes.subarray(filled));
      if (n === null) return bytes.subarray(0, filled);
      filled += n;
    }
    return await readRest(file, [bytes]);
  } finally {
    file.close();
  }
}

/**
 * Reads an open file from its current position to its end, in 64 KB reads, and gives those
 * bytes after the `head` chunks, all in one buffer.
 *
 * @param file An open file; left open, at its end.
 * @param head Bytes to put first (already read), in order. @default {[]}
 * @returns The head and the rest, concatenated.
 * @throws Whatever `read` throws.
 */
export async function readRest(
  file: Deno.FsFile,
  head: readonly Uint8Array[] = [],
): Promise<Uint8Array> {
  const chunks = [...head];
  for (;;) {
    const chunk = new Uint8Array(1 << 16);
    const n = await file.read(chunk);
    if (n === null) break;
    chunks.push(chunk.subarray(0, n));
  }
  const whole = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    whole.set(c, at);
    at += c.length;
  }
  return whole;
}
