/**
 * The flow behind `deno task notebooks`: executes notebooks headless with the Deno Jupyter kernel
 * (nbconvert), checks that no expression cell came back without output, and exports HTML.
 *
 * @module
 */
import { denoFlowIo, type FlowIo } from "./io.ts";

/** How to install what the notebooks need, for messages. */
export const INSTALL_HINT: string =
  "install Jupyter with `apt-get install -y jupyter-nbconvert python3-nbclient " +
  "jupyter-client python3-ipykernel` and register the kernel with `deno jupyter --install`";

/** Runs a command, capturing its output; a missing program is `ok: false`. */
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
export const SILENT_RETRIES: number = 4;

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

/** What `deno task notebooks` was asked for. */
export interface RunNotebooksOptions {
  /** Folder of the notebooks. */
  readonly dir: string;
  /** Notebook file names to run, in order. */
  readonly notebooks: readonly string[];
  /** Folder of the executed copies and HTML exports. */
  readonly outDir: string;
  /** A missing Jupyter is a failure (CI), not a skip. */
  readonly requireJupyter: boolean;
}

/**
 * Executes the notebooks one by one. A run whose expression cells came back without output (a
 * kernel race, not a code error) is retried up to {@linkcode SILENT_RETRIES} times.
 *
 * @param options Notebooks, folders, whether Jupyter is required.
 * @param io Clock, progress lines. @default {denoFlowIo()}
 * @returns `skipped` (with the reason) when Jupyter is missing and not required; else the
 *   notebooks that failed (each with its last output lines), empty when all ran.
 * @throws {Error} When Jupyter is missing and required, or the Deno kernel cannot be registered.
 */
export async function runNotebooks(
  options: RunNotebooksOptions,
  io: Pick<FlowIo, "now" | "progress"> = denoFlowIo(),
): Promise<{ skipped?: string; failed: { name: string; message: string }[] }> {
  const { dir, outDir, notebooks } = options;
  if (!(await run("jupyter", ["nbconvert", "--version"])).ok) {
    if (options.requireJupyter) {
      throw new Error(`Jupyter is not installed, and CI is set: ${INSTALL_HINT}`);
    }
    return { skipped: `Jupyter is not installed; ${INSTALL_HINT}`, failed: [] };
  }
  const kernels = await run("jupyter", ["kernelspec", "list"]);
  if (!/^\s*deno\s/m.test(kernels.out)) {
    io.progress("notebooks", "registering the Deno Jupyter kernel (deno jupyter --install)");
    const installed = await run(Deno.execPath(), ["jupyter", "--install"]);
    if (!installed.ok) throw new Error(`cannot register the Deno kernel: ${installed.out.trim()}`);
  }
  await Deno.mkdir(outDir, { recursive: true });
  const failed: { name: string; message: string }[] = [];
  for (const name of notebooks) {
    const started = io.now();
    io.progress("notebooks", `executing ${name}`);
    // The Deno kernel sometimes reports a cell idle before its result arrives, and nbconvert then
    // stores no output for it. Notebooks avoid it with `await display(...)`
    // (lib/report/notebook.ts); a run that still loses an output is retried.
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
      io.progress(
        "notebooks",
        `${name}: cell(s) ${silent.join(", ")} came back without output; retrying`,
      );
    }
    if (!exec.ok) {
      const lines = exec.out.split("\n").filter((l) =>
        !/Debugger warning|frozen modules|PYDEVD|Debugging will/.test(l)
      );
      failed.push({ name, message: `notebook ${name} failed:\n${lines.slice(-25).join("\n")}` });
      continue;
    }
    if (silent.length > 0) {
      failed.push({
        name,
        message: `notebook ${name}: cell(s) ${silent.join(", ")} end with an expression but ` +
          `showed nothing in ${SILENT_RETRIES + 1} runs`,
      });
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
      io.progress(
        "notebooks",
        `warning: HTML export of ${name} failed: ${html.out.trim().split("\n").pop()}`,
      );
    }
    io.progress("notebooks", `${name} ok in ${((io.now() - started) / 1000).toFixed(1)} s`);
  }
  return { failed };
}
