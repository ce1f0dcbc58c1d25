// deno task notebooks: execute every numbered notebook headless with the Deno
// Jupyter kernel; executed copies and HTML exports land in results/notebooks/.
// Fails on any cell error. Without Jupyter: skips with instructions, except
// when CI is set, where a missing Jupyter is a failure.
import { fromRoot, parseFlags, progress, runMain } from "./_cli.ts";

const HELP = `mcpmeter notebooks — execute notebooks/NN_*.ipynb headless

Usage: deno task notebooks [--out DIR] [NOTEBOOK ...]

  --out DIR    Where executed notebooks and HTML exports go (default: results/notebooks/)
  NOTEBOOK     Run only these notebooks (default: every notebooks/[0-9][0-9]_*.ipynb)

Needs Jupyter with the Deno kernel: apt-get install -y jupyter-nbconvert python3-nbclient
jupyter-client python3-ipykernel && deno jupyter --install
`;

const INSTALL_HINT =
  "install Jupyter with `apt-get install -y jupyter-nbconvert python3-nbclient " +
  "jupyter-client python3-ipykernel` and register the kernel with `deno jupyter --install`";

async function run(
  cmd: string,
  args: string[],
  cwd?: string,
): Promise<{ ok: boolean; out: string }> {
  try {
    const result = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" })
      .output();
    const dec = new TextDecoder();
    return { ok: result.success, out: dec.decode(result.stdout) + dec.decode(result.stderr) };
  } catch (error) {
    return { ok: false, out: (error as Error).message };
  }
}

/** Extra runs of a notebook whose expression cells came back without output. */
const SILENT_RETRIES = 4;

/**
 * Indexes (1-based, code cells only) of executed code cells whose last
 * top-level statement is an expression (not a declaration, import or control
 * statement) but that have no output: a chart or table the reader would
 * silently miss. Statements are found by layout, as `deno fmt` writes them:
 * a top-level statement starts at column 0.
 */
export async function silentCells(path: string): Promise<number[]> {
  const nb = JSON.parse(await Deno.readTextFile(path)) as {
    cells: { cell_type: string; source: string[] | string; outputs?: unknown[] }[];
  };
  const out: number[] = [];
  let index = 0;
  for (const cell of nb.cells) {
    if (cell.cell_type !== "code") continue;
    index++;
    const source = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
    // The last top-level statement starts on the last line at column 0 that
    // does not close or continue an earlier one (deno fmt layout).
    const starts = source.split("\n").filter((l) => /^[^\s)\]}.]/.test(l));
    const last = starts.at(-1) ?? "";
    const expression = last !== "" &&
      !/^(import|export|const|let|var|function|async function|class|type|interface|for|if|while)\b/
        .test(last);
    if (expression && (cell.outputs ?? []).length === 0) out.push(index);
  }
  return out;
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    out: { type: "string" },
    help: { type: "boolean", short: "h" },
  }, true);
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const dir = fromRoot("notebooks/");
  const notebooks = positionals.length > 0 ? positionals.map((p) => p.split("/").pop()!) : [
    ...Deno.readDirSync(dir),
  ].map((e) => e.name).filter((n) => /^\d\d_.*\.ipynb$/.test(n)).sort();
  const outDir = values.out ?? fromRoot("results/notebooks");

  if (!(await run("jupyter", ["nbconvert", "--version"])).ok) {
    if (Deno.env.get("CI")) {
      throw new Error(`Jupyter is not installed, and CI is set: ${INSTALL_HINT}`);
    }
    console.error(
      `notebooks skipped (${notebooks.length}): Jupyter is not installed; ${INSTALL_HINT}`,
    );
    return 0;
  }
  const kernels = await run("jupyter", ["kernelspec", "list"]);
  if (!/^\s*deno\s/m.test(kernels.out)) {
    progress("notebooks", "registering the Deno Jupyter kernel (deno jupyter --install)");
    const installed = await run(Deno.execPath(), ["jupyter", "--install"]);
    if (!installed.ok) throw new Error(`cannot register the Deno kernel: ${installed.out.trim()}`);
  }
  await Deno.mkdir(outDir, { recursive: true });
  const failed: string[] = [];
  for (const name of notebooks) {
    const started = performance.now();
    progress("notebooks", `executing ${name}`);
    // The Deno kernel sometimes reports a cell idle before its result arrives,
    // and nbconvert then stores no output for it (a race, not a code error).
    // Notebooks avoid it with `await display(...)` (lib/report/notebook.ts);
    // a run that still loses an output is retried, up to SILENT_RETRIES times.
    let exec = { ok: false, out: "" };
    let silent: number[] = [];
    for (let attempt = 0; attempt <= SILENT_RETRIES; attempt++) {
      exec = await run("jupyter", [
        "nbconvert",
        "--to",
        "notebook",
        "--execute",
        "--ExecutePreprocessor.kernel_name=deno",
        "--ExecutePreprocessor.timeout=600",
        "--output-dir",
        outDir,
        name,
      ], dir);
      if (!exec.ok) break;
      silent = await silentCells(`${outDir}/${name}`);
      if (silent.length === 0) break;
      progress(
        "notebooks",
        `${name}: cell(s) ${silent.join(", ")} came back without output; retrying`,
      );
    }
    if (!exec.ok) {
      failed.push(name);
      const lines = exec.out.split("\n").filter((l) =>
        !/Debugger warning|frozen modules|PYDEVD|Debugging will/.test(l)
      );
      console.error(`notebook ${name} failed:\n${lines.slice(-25).join("\n")}`);
      continue;
    }
    if (silent.length > 0) {
      failed.push(name);
      console.error(
        `notebook ${name}: cell(s) ${
          silent.join(", ")
        } end with an expression but showed nothing ` +
          `in ${SILENT_RETRIES + 1} runs`,
      );
      continue;
    }
    const html = await run("jupyter", [
      "nbconvert",
      "--to",
      "html",
      "--output-dir",
      outDir,
      `${outDir}/${name}`,
    ]);
    if (!html.ok) {
      console.error(`warning: HTML export of ${name} failed: ${html.out.trim().split("\n").pop()}`);
    }
    progress("notebooks", `${name} ok in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  if (failed.length > 0) {
    throw new Error(`${failed.length} notebook(s) failed: ${failed.join(", ")}`);
  }
  console.log(`${notebooks.length} notebooks executed; outputs in ${outDir}`);
  return 0;
}

if (import.meta.main) await runMain("notebooks", () => main(Deno.args));
