/**
 * Process isolation for stdio servers (private to lib/mcp): how a server's
 * command is wrapped so that its whole process tree can be killed at once.
 *
 * - `namespace` (Linux, root, `unshare` works): the command runs as
 *   `unshare -n -p --fork --kill-child -- sh -c 'ip link set lo up; exec "$@"' sh CMD ARGS`.
 *   It gets a new network namespace that holds only loopback (no network) and
 *   a new PID namespace. SIGKILL to the `unshare` process makes the kernel kill
 *   the namespace's init, and with it every process in the namespace, even
 *   ones that called `setsid` or double-forked.
 * - `process-group` (fallback): `setsid CMD ARGS` makes the server the leader
 *   of a new process group; SIGKILL goes to the whole group. A descendant that
 *   starts its own session escapes, and the server keeps network access.
 * - `none` (no `setsid` either): only the server process itself is killed.
 *
 * @module
 */

/** Which isolation wraps each stdio server. */
export type IsolationMode = "namespace" | "process-group" | "none";

let detected: Promise<IsolationMode> | undefined;

/**
 * Finds the strongest isolation available here (probed once per process).
 *
 * @returns `namespace` when `unshare -n -p --fork --kill-child -- true` exits
 *   0, else `process-group` when `setsid` runs, else `none`.
 */
export function detectIsolation(): Promise<IsolationMode> {
  detected ??= probe();
  return detected;
}

async function probe(): Promise<IsolationMode> {
  if (Deno.build.os !== "linux") return await runs("setsid", ["true"]) ? "process-group" : "none";
  if (await runs("unshare", ["-n", "-p", "--fork", "--kill-child", "--", "true"])) {
    return "namespace";
  }
  return await runs("setsid", ["true"]) ? "process-group" : "none";
}

async function runs(command: string, args: string[]): Promise<boolean> {
  try {
    const out = await new Deno.Command(command, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    return out.success;
  } catch {
    return false;
  }
}

/**
 * Wraps a command line for the given isolation mode.
 *
 * @param mode Isolation mode.
 * @param command Absolute path of the executable.
 * @param args Its arguments.
 * @returns The command and arguments to spawn instead.
 */
export function wrapCommand(
  mode: IsolationMode,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  switch (mode) {
    case "namespace":
      return {
        command: "unshare",
        args: [
          "-n",
          "-p",
          "--fork",
          "--kill-child",
          "--",
          "sh",
          "-c",
          'ip link set lo up 2>/dev/null; exec "$@"',
          "sh",
          command,
          ...args,
        ],
      };
    case "process-group":
      return { command: "setsid", args: [command, ...args] };
    case "none":
      return { command, args: [...args] };
  }
}

/**
 * Sends SIGKILL to everything a wrapped command started. Errors (already gone)
 * are ignored.
 *
 * @param mode The mode the command was wrapped with.
 * @param pid Pid of the spawned (wrapper) process.
 */
export function killTree(mode: IsolationMode, pid: number): void {
  const targets = mode === "process-group" ? [-pid, pid] : [pid];
  for (const target of targets) {
    try {
      Deno.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * Finds an executable the way a shell would: a name with a `/` is taken as a
 * path; a bare name is searched in `PATH`.
 *
 * @param command Command name or path.
 * @param path The `PATH` value to search (colon-separated).
 * @param cwd Directory that relative paths are resolved against.
 * @returns The absolute path of an executable regular file; `command` itself when a folder
 *   could not be read for lack of permission (the spawn then searches `PATH`); else `undefined`.
 */
export function findExecutable(command: string, path: string, cwd: string): string | undefined {
  const candidates = command.includes("/")
    ? [command.startsWith("/") ? command : `${cwd}/${command}`]
    : path.split(":").filter((dir) => dir !== "").map((dir) => `${dir}/${command}`);
  let unreadable = false;
  for (const candidate of candidates) {
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && info.mode !== null && (info.mode & 0o111) !== 0) return candidate;
    } catch (error) {
      // Not there, or a folder this process may not read (a caller without a wide read
      // permission): then the spawn itself, which --allow-run permits, looks the command up.
      if (error instanceof Deno.errors.NotCapable) unreadable = true;
    }
  }
  return unreadable ? command : undefined;
}
