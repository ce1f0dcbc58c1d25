/**
 * `deno task test:quick`: the tests of the change-test loop. Every `*_test.ts` under `lib/`,
 * `tasks/` and `testing/` runs, except a file whose first lines carry {@linkcode FULL_TIER_MARK}
 * (it starts processes: MCP servers, npm, Chromium, git, Jupyter, `deno`; or, with its reason,
 * it cannot yet run beside others); `deno task test`, the full gate, runs those too. The quick tier runs without `--allow-run`, so a test that starts a
 * process without its file's mark fails it ("Requires run access") instead of slowing it.
 * Test files run in parallel, one per core. Arguments are passed to `deno test` (e.g.
 * `--filter NAME`). A test that sweeps a whole corpus or token table passes
 * {@linkcode FULL_TIER_ONLY} and runs in the full gate only.
 *
 * @module
 */

/** The line that keeps a test file out of the quick tier, within its first lines. */
export const FULL_TIER_MARK = "// test:quick skips this file:";

/** The variable the quick tier sets in its tests' environment (`quick`). */
export const TIER_VARIABLE = "MCPMETER_TEST_TIER";

/**
 * Options of an exhaustive sweep (every tool of a corpus, every token of an encoding, thousands of
 * random cases): `Deno.test(name, FULL_TIER_ONLY, fn)` ignores it in the quick tier; `deno task
 * test` runs it.
 */
export const FULL_TIER_ONLY: { readonly ignore: boolean } = {
  ignore: Deno.env.get(TIER_VARIABLE) === "quick",
};

/** Lines of a test file searched for the mark. */
const HEAD_LINES = 15;

/**
 * The quick tier's test files: every `*_test.ts` under the folders, sorted, but those whose
 * first {@linkcode HEAD_LINES} lines hold {@linkcode FULL_TIER_MARK}.
 *
 * @param root The repository root.
 * @param folders Folders under it.
 * @returns Paths relative to `root`.
 */
export async function quickTestFiles(
  root: string,
  folders: readonly string[] = ["lib", "tasks", "testing"],
): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(`${root}/${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith("_test.ts")) {
        const head = (await Deno.readTextFile(`${root}/${path}`)).split("\n", HEAD_LINES);
        if (!head.some((line) => line.startsWith(FULL_TIER_MARK))) out.push(path);
      }
    }
  };
  for (const folder of folders) await walk(folder);
  return out.sort();
}

if (import.meta.main) {
  const root = new URL("..", import.meta.url).pathname;
  const files = await quickTestFiles(root);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "--parallel",
      "--allow-read",
      "--allow-write",
      "--allow-net",
      "--allow-env",
      "--allow-sys",
      ...Deno.args,
      ...files,
    ],
    cwd: root,
    env: { [TIER_VARIABLE]: "quick" },
  }).spawn().status;
  Deno.exit(code);
}
