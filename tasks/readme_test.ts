// test:quick skips this file: its tests start processes (deno task test runs them).
// The README's commands, checked and run. What runs for real: `deno task bench` (its stdout must
// be the README's sample output, the timing aside; with --out in a temporary folder, whose path
// is printed as results/) and `deno task serve` (its page must answer; on a free port with a
// temporary config and results folder). What is only checked, for README.md and every page of
// docs/: each `deno task NAME` names a task of deno.json and each --flag it passes is one that
// task's --help lists, and each relative link names a file that exists. demo-agents, capture,
// agents and the others cost minutes or a network and run in their own tests
// (tasks/permissions_test.ts runs each task once under its permissions).
import assert from "node:assert/strict";
import { join } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;
const README = await Deno.readTextFile(join(ROOT, "README.md"));
const TASKS: Record<string, unknown> = JSON.parse(
  await Deno.readTextFile(join(ROOT, "deno.json")),
).tasks;

/** Words of one shell command line as the shell would split them (quotes kept together). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | null = null;
  let started = false;
  for (const ch of line) {
    if (quote !== null) {
      if (ch === quote) quote = null;
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started || word !== "") words.push(word);
      word = "";
      started = false;
    } else if (ch === "#" && word === "" && !started) {
      break; // a comment
    } else word += ch;
  }
  if (started || word !== "") words.push(word);
  return words;
}

/** The commands of a Markdown text's ```sh blocks: continuations joined, split on && and ;. */
export function shellCommands(markdown: string): string[][] {
  const out: string[][] = [];
  for (const [, body] of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const joined = body.replace(/\\\n\s*/g, " ");
    for (const line of joined.split("\n")) {
      for (const part of line.split(/&&|;/)) {
        const words = shellWords(part);
        if (words.length > 0) out.push(words);
      }
    }
  }
  return out;
}

Deno.test("shellCommands() joins continuations, splits && and drops comments", () => {
  const md = "x\n```sh\ndeno task a --b 'c d' \\\n  --e  # note\ngit x && deno task f # g\n```\n";
  assert.deepEqual(shellCommands(md), [
    ["deno", "task", "a", "--b", "c d", "--e"],
    ["git", "x"],
    ["deno", "task", "f"],
  ]);
});

const helps = new Map<string, string>();

/** A task's --help text, run through deno task itself. */
async function help(name: string): Promise<string> {
  if (!helps.has(name)) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", name, "--help"],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, `deno task ${name} --help: ${new TextDecoder().decode(out.stderr)}`);
    helps.set(name, new TextDecoder().decode(out.stdout));
  }
  return helps.get(name)!;
}

Deno.test("every deno task command of README.md and docs/ names a real task and its real flags", async () => {
  const pages: [string, string][] = [["README.md", README]];
  for await (const e of Deno.readDir(join(ROOT, "docs"))) {
    if (e.isFile && e.name.endsWith(".md")) {
      pages.push([`docs/${e.name}`, await Deno.readTextFile(join(ROOT, "docs", e.name))]);
    }
  }
  const problems: string[] = [];
  let checked = 0;
  for (const [page, text] of pages.sort()) {
    for (const words of shellCommands(text)) {
      if (words[0] !== "deno" || words[1] !== "task" || words.length < 3) continue;
      const name = words[2];
      if (name.startsWith("-")) continue;
      if (!(name in TASKS)) {
        problems.push(`${page}: deno task ${name}: no such task in deno.json`);
        continue;
      }
      if (["test", "test:quick", "check"].includes(name)) continue;
      const text = await help(name);
      for (const word of words.slice(3)) {
        const flag = /^(--[a-z][a-z0-9-]*)/.exec(word)?.[1];
        if (flag === undefined) continue;
        const listed = new RegExp(`(^|[\\s,(\\[|])${flag}(?![a-z0-9-])`, "m").test(text);
        if (!listed) problems.push(`${page}: deno task ${name} ${flag}: not in its --help`);
      }
      checked++;
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(checked > 50, `only ${checked} commands found`);
});

Deno.test("every relative link of README.md and docs/ names a file that exists", async () => {
  const pages = ["README.md", "ARCHITECTURE.md"];
  for await (const e of Deno.readDir(join(ROOT, "docs"))) {
    if (e.isFile && e.name.endsWith(".md")) pages.push(`docs/${e.name}`);
  }
  const broken: string[] = [];
  let links = 0;
  for (const page of pages.sort()) {
    const text = await Deno.readTextFile(join(ROOT, page));
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target) || target.startsWith("#")) continue;
      links++;
      const file = join(ROOT, page, "..", target.split("#")[0]);
      if (!await Deno.stat(file).then(() => true, () => false)) broken.push(`${page}: ${target}`);
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(links > 40, `only ${links} links found`);
});

Deno.test("the README names every task of deno.json", () => {
  const named = new Set([...README.matchAll(/`([a-z][a-z:-]*)`/g)].map((m) => m[1]));
  const missing = Object.keys(TASKS).filter((t) => !named.has(t));
  assert.deepEqual(missing, [], "list these tasks in the README's task list");
});

Deno.test({
  name: "deno task bench prints what the README's sample output shows (timing aside)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const sample = /<!-- bench-sample -->\n+```\n([\s\S]*?)```/.exec(README)?.[1];
    assert.ok(sample, "README.md lacks <!-- bench-sample --> followed by a ``` block");
    const out = await Deno.makeTempDir({ prefix: "mcpmeter-readme-" });
    try {
      const r = await new Deno.Command(Deno.execPath(), {
        args: ["task", "--quiet", "bench", "--out", out],
        cwd: ROOT,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(r.stdout);
      assert.equal(r.code, 0, new TextDecoder().decode(r.stderr).slice(-2000));
      const timing = (text: string) =>
        text.replaceAll(out, "results").replace(/ in \d+(\.\d+)? s$/m, " in N s");
      assert.equal(
        timing(stdout),
        timing(sample),
        "update the README's sample output to what deno task bench prints",
      );
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});

Deno.test({
  name: "deno task serve answers on the address it prints",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-readme-serve-" });
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "task",
        "--quiet",
        "serve",
        "--port",
        "0",
        "--config",
        `${dir}/config`,
        "--results",
        dir,
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let text = "";
    try {
      const found = Promise.withResolvers<string>();
      const pump = async (stream: ReadableStream<Uint8Array<ArrayBuffer>>) => {
        for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
          text += chunk;
          const m = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(text);
          if (m) found.resolve(m[1]);
        }
      };
      const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
      child.status.then((s) => found.reject(new Error(`serve exited ${s.code}:\n${text}`)));
      const url = await found.promise;
      const res = await fetch(`${url}/`);
      const page = await res.text();
      assert.equal(res.status, 200);
      assert.match(page, /Test plans/);
      child.kill("SIGTERM");
      await child.status;
      await pumps;
    } finally {
      try {
        child.kill("SIGKILL");
      } catch { /* exited */ }
      await Deno.remove(dir, { recursive: true });
    }
  },
});
