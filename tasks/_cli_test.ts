// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import { join } from "node:path";
import { fromRoot, intFlag, listFlag, parseFlags, UsageError } from "./_cli.ts";

const usage = (fn: () => unknown, message: string) =>
  assert.throws(fn, (e: unknown) => e instanceof UsageError && e.message === message);

Deno.test("intFlag() reads integers >= min and names the flag and the value otherwise", () => {
  assert.equal(intFlag("seed", undefined, 7), 7);
  assert.equal(intFlag("seed", "0", 7), 0);
  assert.equal(intFlag("limit", "12", 1, 1), 12);
  usage(() => intFlag("seed", "-1", 0), '--seed must be a non-negative integer, got "-1"');
  usage(
    () => intFlag("timeout-ms", "abc", 1, 1),
    '--timeout-ms must be a positive integer, got "abc"',
  );
  usage(
    () => intFlag("concurrency", "0", 1, 1),
    '--concurrency must be a positive integer, got "0"',
  );
  usage(() => intFlag("k", "2.5", 1, 3), '--k must be an integer >= 3, got "2.5"');
  usage(() => intFlag("seed", "", 0), '--seed must be a non-negative integer, got ""');
  usage(() => intFlag("seed", "1e400", 0), '--seed must be a non-negative integer, got "1e400"');
});

Deno.test("listFlag() splits on commas, trims, and refuses an empty or unknown list", () => {
  assert.equal(listFlag("only", undefined), undefined);
  assert.deepEqual(listFlag("only", " a, b ,,c"), ["a", "b", "c"]);
  // A repeat is dropped: the first of each is kept, in the order given.
  assert.deepEqual(listFlag("only", "b,a,b, a"), ["b", "a"]);
  assert.deepEqual(listFlag("tokenizers", "o200k_base", ["cl100k_base", "o200k_base"]), [
    "o200k_base",
  ]);
  usage(
    () => listFlag("tokenizers", ","),
    '--tokenizers needs at least one comma-separated value, got ","',
  );
  usage(() => listFlag("only", ""), '--only needs at least one comma-separated value, got ""');
  usage(
    () => listFlag("tokenizers", "cl100k_base,p50k_base", ["cl100k_base", "o200k_base"]),
    '--tokenizers: unknown value "p50k_base" (known: cl100k_base, o200k_base)',
  );
});

Deno.test("parseFlags() names an unknown flag or a stray argument in one line", () => {
  usage(
    () => parseFlags(["--frob"], { seed: { type: "string" } }),
    "unknown flag --frob (see --help)",
  );
  usage(
    () => parseFlags(["extra"], { seed: { type: "string" } }),
    'unexpected argument "extra": this task takes flags only (see --help)',
  );
});

Deno.test("parseFlags() says a missing value is missing, and reads a negative number as a value", () => {
  const spec = {
    seed: { type: "string" },
    out: { type: "string" },
    live: { type: "boolean" },
  } as const;
  // A negative number after the flag is its value, as with "=": both reach the same check.
  assert.deepEqual({ ...parseFlags(["--seed", "-1"], spec).values }, { seed: "-1" });
  assert.deepEqual({ ...parseFlags(["--seed=-1"], spec).values }, { seed: "-1" });
  assert.deepEqual({ ...parseFlags(["--seed", "-.5", "--live"], spec).values }, {
    seed: "-.5",
    live: true,
  });
  usage(
    () => intFlag("seed", parseFlags(["--seed", "-1"], spec).values.seed, 0),
    '--seed must be a non-negative integer, got "-1"',
  );
  usage(() => parseFlags(["--out", "x", "--seed"], spec), "--seed needs a value (see --help)");
  usage(
    () => parseFlags(["--seed", "--out", "x"], spec),
    "--seed needs a value, but the next argument is the flag --out (see --help)",
  );
  usage(
    () => parseFlags(["--out", "-x"], spec),
    '--out needs a value, but the next argument "-x" reads as a flag; a value that starts with ' +
      '"-" is written --out=-x',
  );
  assert.deepEqual({ ...parseFlags(["--out=-x"], spec).values }, { out: "-x" });
  // A boolean flag before a negative number is not given it.
  usage(() => parseFlags(["--live", "-1"], spec), "unknown flag -1 (see --help)");
  usage(() => parseFlags(["--live=no"], spec), "--live takes no value (see --help)");
  // "--" ends the flags: what follows is left to parseArgs as positionals.
  assert.deepEqual(parseFlags(["--seed", "2", "--", "--out"], spec, true).positionals, ["--out"]);
});

Deno.test("intFlag() with min 1 says positive, and never non-negative, where 0 is refused", () => {
  usage(() => intFlag("tools", "0", 1, 1), '--tools must be a positive integer, got "0"');
  usage(() => intFlag("tools", "-1", 1, 1), '--tools must be a positive integer, got "-1"');
});

Deno.test("runMain() names, in the same line, what the task's own permissions allow", async () => {
  // synth may write anywhere but fixtures/ (its permission set): an output there is refused
  // with exit 2, and nothing is written.
  const target = "fixtures/mcpmeter_hint.tools.json";
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "synth", "--tools", "10", "--seed", "2", "--out", target],
    cwd: new URL("../", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(out.code, 2);
  const lines = new TextDecoder().decode(out.stderr).split("\n")
    .filter((l) => l.startsWith("mcpmeter synth:"));
  assert.equal(lines.length, 1, lines.join("\n"));
  assert.match(
    lines[0],
    /^mcpmeter synth: error: --out fixtures\/mcpmeter_hint.tools.json: cannot write there \(Requires write access to "/,
  );
  assert.match(
    lines[0],
    /; deno task synth may read anywhere and write anywhere but fixtures\/ \(/,
  );
  await assert.rejects(() => Deno.stat(new URL(`../${target}`, import.meta.url)));
});

Deno.test("intFlag() takes plain decimal digits only: 1e3, 0x10, 1.0 and +5 are refused", () => {
  // Number() reads each of these as an integer; a user who typed them meant something else.
  for (const text of ["1e3", "0x10", "0o7", "0b1", "1.0", "+5", "1_000", "Infinity", "- 1"]) {
    usage(
      () => intFlag("seed", text, 0),
      `--seed must be a non-negative integer, got ${JSON.stringify(text)}`,
    );
  }
  usage(() => intFlag("tools", "1e3", 1, 1), '--tools must be a positive integer, got "1e3"');
  assert.equal(intFlag("seed", " 42 ", 0), 42);
  // Digits past 2^53 - 1 are too large, not "not an integer"; 2^53 - 1 itself is taken.
  usage(
    () => intFlag("questions", "99999999999999999999", 1, 1),
    '--questions is too large: at most 9007199254740991, got "99999999999999999999"',
  );
  usage(
    () => intFlag("questions", "9007199254740992", 1, 1),
    '--questions is too large: at most 9007199254740991, got "9007199254740992"',
  );
  assert.equal(intFlag("questions", "9007199254740991", 1, 1), 9007199254740991);
  usage(
    () => intFlag("k", "-99999999999999999999", 0, -5),
    '--k must be an integer >= -5, got "-99999999999999999999"',
  );
  assert.equal(intFlag("seed", "007", 0), 7);
  assert.equal(intFlag("k", "-3", 0, -5), -3);
});

Deno.test("every task reads its integer flags with intFlag(): no task parses a number itself", async () => {
  // A task that calls Number()/parseInt()/parseFloat() on a flag skips the shared check and its
  // message; numbers are read in tasks/_flags.ts only.
  const offenders: string[] = [];
  for await (const entry of Deno.readDir(new URL(".", import.meta.url))) {
    const name = entry.name;
    if (!name.endsWith(".ts") || name.endsWith("_test.ts") || name === "_flags.ts") continue;
    const text = await Deno.readTextFile(new URL(name, import.meta.url));
    text.split("\n").forEach((line, i) => {
      if (/\b(Number|parseInt|parseFloat)\(/.test(line)) {
        offenders.push(`${name}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(offenders.sort(), []);
});

Deno.test("gate --seed and lint-catalog --max-schema-tokens refuse 1e3 and 1.5 with the shared message", async () => {
  const run = async (task: string, args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL(`./${task}.ts`, import.meta.url).pathname, ...args],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
  };
  const gate = await run("gate", ["--baseline", "a", "--candidate", "b", "--seed", "1.5"]);
  assert.equal(gate.code, 2, gate.stderr);
  assert.match(gate.stderr, /--seed must be a non-negative integer, got "1\.5"/);
  const lint = await run("lint_catalog", ["--corpus", "x.json", "--max-schema-tokens", "1e3"]);
  assert.equal(lint.code, 2, lint.stderr);
  assert.match(lint.stderr, /--max-schema-tokens must be a positive integer, got "1e3"/);
});

Deno.test("runMain() exits with the task's crash code on an unexpected error, 2 on a usage error", async () => {
  const run = async (body: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", `import { runMain, UsageError } from "./tasks/_cli.ts";\n${body}`],
      cwd: new URL("../", import.meta.url).pathname,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr).trim() };
  };
  const boom = 'throw new TypeError("boom")';
  assert.deepEqual(await run(`await runMain("t", () => { ${boom}; });`), {
    code: 1,
    stderr: "mcpmeter t: error: boom",
  });
  assert.deepEqual(await run(`await runMain("t", () => { ${boom}; }, { crashCode: 3 });`), {
    code: 3,
    stderr: "mcpmeter t: error: boom",
  });
  const usage = 'throw new UsageError("--x is bad")';
  assert.equal((await run(`await runMain("t", () => { ${usage}; }, { crashCode: 3 });`)).code, 2);
  assert.equal(
    (await run(`await runMain("t", () => Promise.resolve(1), { crashCode: 3 });`)).code,
    1,
  );
});

Deno.test("parseFlags() resolves the paths the user typed from INIT_CWD, never a default or a keyword", () => {
  const before = Deno.env.get("INIT_CWD");
  Deno.env.set("INIT_CWD", "/home/u/work");
  try {
    const spec = {
      corpus: { type: "string", multiple: true, path: true },
      golden: { type: "string", multiple: true, path: { except: ["none"] } },
      out: { type: "string", path: true, default: "results/runs" },
      suite: { type: "string" },
    } as const;
    const { values, positionals } = parseFlags(
      [
        "--corpus",
        "a.json",
        "--corpus=../b.json",
        "--golden",
        "none",
        "--golden",
        "g.json",
        "--suite",
        "fs_basics",
        "/abs/run",
        "runs/x",
      ],
      spec,
      "paths",
    );
    assert.deepEqual(values.corpus, ["/home/u/work/a.json", "/home/u/b.json"]);
    assert.deepEqual(values.golden, ["none", "/home/u/work/g.json"]);
    // The default names a repository folder: left for the task's working folder.
    assert.equal(values.out, "results/runs");
    // Not a path flag: as typed.
    assert.equal(values.suite, "fs_basics");
    assert.deepEqual(positionals, ["/abs/run", "/home/u/work/runs/x"]);
    assert.equal(parseFlags(["--out", "o/"], spec).values.out, "/home/u/work/o/");
    // Positionals that are not paths stay as typed.
    assert.deepEqual(parseFlags(["x.ipynb"], spec, true).positionals, ["x.ipynb"]);
    // Where the user is the working folder, a path is left as typed.
    Deno.env.set("INIT_CWD", Deno.cwd());
    assert.deepEqual(parseFlags(["--corpus", "./a.json"], spec).values.corpus, ["./a.json"]);
  } finally {
    if (before === undefined) Deno.env.delete("INIT_CWD");
    else Deno.env.set("INIT_CWD", before);
  }
});

Deno.test({
  name: "deno task run from another folder reads and writes the relative paths typed there; " +
    "defaults stay the repository's",
  async fn() {
    const home = Deno.env.get("HOME");
    assert.ok(home, "HOME");
    const user = await Deno.makeTempDir({ dir: home, prefix: "mcpmeter-paths-" });
    try {
      const catalog = JSON.stringify({
        tools: [{
          name: "read_note",
          description: "Read a note by its id.",
          inputSchema: { type: "object", properties: { id: { type: "string" } } },
        }],
      });
      await Deno.writeTextFile(join(user, "my.json"), catalog);
      const sha = [
        ...new Uint8Array(
          await crypto.subtle.digest("SHA-256", new TextEncoder().encode(catalog)),
        ),
      ].map((b) => b.toString(16).padStart(2, "0")).join("");
      // deno task keeps an INIT_CWD it inherits (as when this test runs under deno task test):
      // the child starts without one, as from a user's shell.
      const env = Deno.env.toObject();
      delete env.INIT_CWD;
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "task",
          "-q",
          "--cwd",
          fromRoot("."),
          "bench",
          "--corpus",
          "./my.json",
          "--golden",
          "none",
          "--out",
          "out",
        ],
        cwd: user,
        clearEnv: true,
        env: { ...env, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, stderr);
      const report = JSON.parse(await Deno.readTextFile(join(user, "out", "report.json")));
      const inputs = report.inputs as { path: string; sha256: string }[];
      // Read from the user's folder: its path and the sha256 of the bytes written above.
      assert.deepEqual(inputs[0], { path: join(user, "my.json"), sha256: sha });
      // The defaults (the proxy and code catalogs) are the repository's fixtures.
      assert.deepEqual(inputs.slice(1, 3).map((i) => i.path), [
        "fixtures/proxies/reference_proxy.tools.json",
        "fixtures/proxies/reference_code.tools.json",
      ]);
      assert.ok((await Deno.stat(join(user, "out", "dashboard.html"))).isFile);
      await assert.rejects(Deno.stat(fromRoot("out/report.json")), Deno.errors.NotFound);
    } finally {
      await Deno.remove(user, { recursive: true });
    }
  },
});

Deno.test("deno task run from a subfolder of the repository reads a path relative to it", async () => {
  const env = Deno.env.toObject();
  delete env.INIT_CWD;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "lint-catalog", "--corpus", "reference_proxy.tools.json"],
    cwd: fromRoot("fixtures/proxies"),
    clearEnv: true,
    env: { ...env, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  // The file has 3 tools (fixtures/proxies/reference_proxy.tools.json); named from the repository.
  assert.match(stdout, /^fixtures\/proxies\/reference_proxy\.tools\.json: 3 tools, /);
});
