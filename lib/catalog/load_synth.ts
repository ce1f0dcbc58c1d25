/**
 * Read a reference catalog for the synthetic catalog generator from disk: the I/O edge in front
 * of {@linkcode synthReference} (apart from load.ts, so loading a catalog does not load the
 * generator).
 *
 * Needs `--allow-read` for the file.
 *
 * @module
 */

import { readFailure } from "../core/errors.ts";
import { readWhole } from "../core/files.ts";
import { CatalogError } from "./errors.ts";
import { sha256Hex } from "./load.ts";
import { type SynthReference, synthReference } from "./synth.ts";

/**
 * Read a reference catalog for the synthetic catalog generator (`deno task synth`): the file
 * read once, its bytes hashed, then {@linkcode synthReference} of its text.
 *
 * @param path File path of the reference catalog (any format `parseCatalog` reads).
 * @returns The reference, its corpus with `provenance.path` and `provenance.sha256` set.
 * @throws {CatalogError} As `loadCatalog`.
 */
export async function loadSynthReference(path: string): Promise<SynthReference> {
  let bytes: Uint8Array;
  try {
    bytes = await readWhole(path);
  } catch (e) {
    throw new CatalogError(readFailure(e), { path, cause: e });
  }
  const sha256 = await sha256Hex(bytes);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (e) {
    throw new CatalogError("is not valid UTF-8 text", { path, cause: e });
  }
  return synthReference(text, { path, sha256 });
}
