// test:quick skips this file: it runs each task's --help in a deno process.
// Every flag a task's --help shows with a FILE, DIR, PATH or CONFIG value is declared with
// `path` in the task's flag table, so a relative path the user types is read from the folder
// they typed it in (lib/core/paths.ts), never from the repository by accident.
import assert from "node:assert/strict";

/** Help placeholders that name a file or folder. */
const PATH_VALUE = /^\s+--([a-z][a-z-]*) (FILE|DIR|PATH|CONFIG)\b/;

/** Task files run by `deno task NAME`, from deno.json's commands. */
async function taskFiles(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  const files = new Set<string>();
  for (const task of Object.values(config.tasks) as ({ command: string } | string)[]) {
    const command = typeof task === "string" ? task : task.command;
    const file = /\btasks\/([a-z_]+\.ts)\b/.exec(command)?.[1];
    if (file !== undefined && command.startsWith("deno run")) files.add(file);
  }
  return [...files].sort();
}

/**
 * Whether the flag is declared with `path` in the source: an inline spec (`out: { ...,
 * path: true }`) or a named one (`config: PATH`, where `const PATH = { ... path ... }`).
 */
function declaredAsPath(source: string, flag: string): boolean | undefined {
  const name = `^\\s+"?${flag.replace(/-/g, "\\-")}"?:\\s*`;
  const inline = new RegExp(`${name}\\{([^}]*)\\}`, "m").exec(source);
  if (inline) return inline[1].includes("path:");
  const named = new RegExp(`${name}([A-Z_]+),`, "m").exec(source);
  if (named === null) return undefined;
  const constant = new RegExp(`const ${named[1]} = \\{([^}]*)\\}`).exec(source);
  return constant !== null && constant[1].includes("path:");
}

Deno.test("every flag whose help names a file or folder is a path flag", async () => {
  const shared = await Deno.readTextFile(new URL("./_retriever_flags.ts", import.meta.url));
  const problems: string[] = [];
  let checked = 0;
  const files = await taskFiles();
  const helps = await Promise.all(files.map((file) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `tasks/${file}`, "--help"],
      cwd: new URL("..", import.meta.url),
      stdout: "piped",
      stderr: "piped",
    }).output()
  ));
  for (const [i, file] of files.entries()) {
    const out = helps[i];
    assert.equal(out.code, 0, `${file} --help: ${new TextDecoder().decode(out.stderr)}`);
    const source = await Deno.readTextFile(new URL(`./${file}`, import.meta.url)) + shared;
    for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
      const m = PATH_VALUE.exec(line);
      if (m === null) continue;
      checked++;
      const declared = declaredAsPath(source, m[1]);
      if (declared !== true) {
        problems.push(
          `${file} --${m[1]} ${m[2]}: ${declared === undefined ? "no spec found" : "no path"}`,
        );
      }
    }
  }
  assert.deepEqual(problems, []);
  // The help layouts were read at all: the bench alone shows a dozen FILE and DIR flags.
  assert.ok(checked > 50, `only ${checked} path flags seen`);
});

Deno.test("declaredAsPath reads inline and named specs", () => {
  const source = `const PATH = { type: "string", path: true } as const;
const TEXT = { type: "string" } as const;
  out: { type: "string", path: true },
  "tool-prices": PATH,
  seed: TEXT,
  from: { type: "string" },
`;
  assert.equal(declaredAsPath(source, "out"), true);
  assert.equal(declaredAsPath(source, "tool-prices"), true);
  assert.equal(declaredAsPath(source, "seed"), false);
  assert.equal(declaredAsPath(source, "from"), false);
  assert.equal(declaredAsPath(source, "to"), undefined);
});
