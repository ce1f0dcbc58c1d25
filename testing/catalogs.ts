// Test helper (not part of the public surface): a small catalog cut from the reference corpus
// (filesystem, memory and fetch: 24 tools, as captured) under another corpus id, and a golden
// set labelling it, so a bench over them runs in seconds.
import { fromRoot } from "../tasks/_cli.ts";

/** Servers kept in the small catalog. */
export const MINI_SERVERS = ["fetch", "filesystem", "memory"] as const;

/** Writes `<dir>/<id>.tools.json`: the reference capture's three servers under corpus id `id`. */
export async function writeMiniCatalog(dir: string, id: string): Promise<string> {
  const doc = JSON.parse(
    await Deno.readTextFile(fromRoot("fixtures/corpora/reference_v1.tools.json")),
  );
  const servers = doc.servers.filter((s: { server: string }) =>
    (MINI_SERVERS as readonly string[]).includes(s.server)
  );
  const path = `${dir}/${id}.tools.json`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      ...doc,
      id,
      servers,
      serverCount: servers.length,
      toolCount: servers.reduce((n: number, s: { toolCount: number }) => n + s.toolCount, 0),
    }),
  );
  return path;
}

/** Writes a golden set for corpus `corpusId` (four queries with graded labels) at `path`. */
export async function writeMiniGolden(path: string, corpusId: string): Promise<void> {
  const q = (id: string, query: string, tool: string) => ({
    id,
    query,
    labels: [{ tool_id: tool, relevance: 2 }],
  });
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      corpus_version: corpusId,
      description: "test set of the small catalog",
      queries: [
        q("g1", "read the contents of a text file", "filesystem:read_text_file"),
        q("g2", "list what is in a folder", "filesystem:list_directory"),
        q("g3", "remember that Alice works at Acme", "memory:create_entities"),
        q("g4", "fetch an image from a URL", "fetch:imageFetch"),
      ],
    }),
  );
}
