/**
 * The on-disk caches of the endpoint retrievers (an I/O edge file): one JSON file per key under
 * `dir/<model>/<ab>/<sha256>.json`. Vectors of the embedding retrievers (so a second run on the
 * same corpus sends no request for the documents) and answers of the chat retrievers (`rerank`,
 * `expand`: a rerun sends no prompt again).
 *
 * @module
 */

import { dirname, join } from "node:path";
import type { EmbeddingStore } from "./embeddings.ts";
import type { CachedChat, ChatStore } from "./chat.ts";

/**
 * The file of a `<model>/<sha256>` key: the model name becomes one folder (characters outside
 * `A-Za-z0-9._-` replaced by `_`), so removing a model's folder drops only its entries.
 */
function keyPath(dir: string, key: string): string {
  const slash = key.lastIndexOf("/");
  const model = key.slice(0, slash).replace(/[^A-Za-z0-9._-]/g, "_") || "_";
  const hash = key.slice(slash + 1);
  return join(dir, model, hash.slice(0, 2), `${hash}.json`);
}

/** A JSON file store; a file that cannot be read, parsed or checked counts as a miss. */
function fileStore<T>(dir: string, check: (v: unknown) => v is T) {
  return {
    async get(key: string): Promise<T | undefined> {
      try {
        const v = JSON.parse(await Deno.readTextFile(keyPath(dir, key)));
        return check(v) ? v : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key: string, value: T): Promise<void> {
      const p = keyPath(dir, key);
      await Deno.mkdir(dirname(p), { recursive: true });
      await Deno.writeTextFile(p, JSON.stringify(value) + "\n");
    },
  };
}

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
  return fileStore(dir, (v): v is number[] => Array.isArray(v));
}

/**
 * A file store of chat answers keyed by `chatCacheKey` (`<model>/<sha256 of the prompt>`), laid
 * out as {@linkcode createFileEmbeddingStore}. A file that cannot be read or parsed, or has no
 * `text`, counts as a miss (the prompt is sent again and the file rewritten).
 *
 * @param dir Cache folder (created on first write).
 * @returns The store.
 */
export function createFileChatStore(dir: string): ChatStore {
  return fileStore(
    dir,
    (v): v is CachedChat =>
      typeof v === "object" && v !== null && typeof (v as { text?: unknown }).text === "string",
  );
}
