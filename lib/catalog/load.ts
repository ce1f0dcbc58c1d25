/**
 * Read a catalog file from disk: the I/O edge in front of {@linkcode parseCatalog}.
 *
 * Needs `--allow-read` for the file.
 *
 * @module
 */

import { readFailure } from "../core/errors.ts";
import { readWhole } from "../core/files.ts";
import { CatalogError } from "./errors.ts";
import { parseCatalog, type ParseCatalogOptions } from "./parse.ts";
import type { Corpus } from "./types.ts";

/** Options of {@linkcode loadCatalog}: those of {@linkcode parseCatalog} except `path`. */
export type LoadCatalogOptions = Omit<ParseCatalogOptions, "path">;

/**
 * Lower-case hex SHA-256 of some bytes, or of a string's UTF-8 bytes (Web Crypto). The one
 * SHA-256 of mcpmeter: input hashes, manifests, catalog hashes and response-cache keys.
 *
 * @param data The exact bytes, or a string (hashed as UTF-8).
 * @returns 64 hex characters.
 *
 * @example Usage
 * ```ts
 * import { sha256Hex } from "./load.ts";
 * const empty = await sha256Hex(new Uint8Array());
 * if (empty !== "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") throw new Error(empty);
 * if ((await sha256Hex("")) !== empty) throw new Error("a string hashes as its UTF-8 bytes");
 * ```
 */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Read a catalog file, hash its exact bytes, and parse it.
 *
 * The bytes must be UTF-8 (a leading byte order mark is skipped, but it is
 * still part of the hashed bytes). `provenance.sha256` is the SHA-256 of the
 * file exactly as read, `provenance.path` the path as given.
 *
 * @param path File path, relative to the working directory or absolute.
 * @param options Format, corpus id and server name, as for {@linkcode parseCatalog}.
 * @returns The corpus, with `provenance.path` and `provenance.sha256` set.
 * @throws {CatalogError} When the file is missing or unreadable (a one-line
 *   message, the OS error as `cause`), is not UTF-8, or fails
 *   {@linkcode parseCatalog}'s validation.
 *
 * @example Usage
 * ```ts ignore
 * import { loadCatalog } from "./load.ts";
 * const corpus = await loadCatalog("../shared/corpora/livemcptool/tools.json");
 * console.log(corpus.tools.length, corpus.provenance.sha256);
 * ```
 */
export async function loadCatalog(path: string, options: LoadCatalogOptions = {}): Promise<Corpus> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readWhole(path);
  } catch (e) {
    throw new CatalogError(readFailure(e), { path, cause: e });
  }
  const sha256 = await sha256Hex(bytes);
  // The bytes go once the text is decoded, and the text once it is parsed.
  let text: string | undefined;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (e) {
    throw new CatalogError("is not valid UTF-8 text", { path, cause: e });
  }
  bytes = undefined;
  const corpus = parseCatalog(take(), { ...options, path });
  return { ...corpus, provenance: { ...corpus.provenance, sha256 } };

  function take(): string {
    const t = text!;
    text = undefined;
    return t;
  }
}
