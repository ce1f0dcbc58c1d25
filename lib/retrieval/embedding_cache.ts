/**
 * The on-disk vector cache of the embedding retrievers (an I/O edge file): one JSON file per
 * text under `dir/<model>/<ab>/<sha256>.json`, so a second run on the same corpus sends no
 * request for the documents.
 *
 * @module
 */

import { dirname, join } from "node:path";
import type { EmbeddingStore } from "./embeddings.ts";

/**
 * A file store of vectors keyed by `embeddingCacheKey` (`<model>/<sha256>`).
 *
 * The model name becomes one folder (characters outside `A-Za-z0-9._-` replaced by `_`), so
 * removing a model's folder drops only its vectors. A file that cannot be read or parsed counts
 * as a miss (the vector is fetched again and rewritten).
 *
 * @param dir Cache folder (created on first write).
 * @returns The store.
 */
export function createFileEmbeddingStore(dir: string): EmbeddingStore {
  const path = (key: string) => {
    const slash = key.lastIndexOf("/");
    const model = key.slice(0, slash).replace(/[^A-Za-z0-9._-]/g, "_") || "_";
    const hash = key.slice(slash + 1);
    return join(dir, model, hash.slice(0, 2), `${hash}.json`);
  };
  return {
    async get(key) {
      try {
        const v = JSON.parse(await Deno.readTextFile(path(key)));
        return Array.isArray(v) ? v : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, vector) {
      const p = path(key);
      await Deno.mkdir(dirname(p), { recursive: true });
      await Deno.writeTextFile(p, JSON.stringify(vector) + "\n");
    },
  };
}
