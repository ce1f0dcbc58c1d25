/**
 * `${VAR}` and `${VAR:-default}` expansion, shared by servers configs
 * (lib/mcp) and model registries (lib/agent). Private: each caller raises its
 * own documented error for a missing variable.
 *
 * Semantics follow the POSIX shell: `${VAR:-default}` gives `default` when VAR
 * is unset or empty; `${VAR}` gives VAR's value, which may be empty, and is
 * missing only when VAR is unset.
 *
 * @module
 */

/** A `${NAME}` or `${NAME:-default}` reference; group 1 the name, group 2 the default. */
export const VARIABLE_PATTERN: RegExp = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces every `${VAR}` / `${VAR:-default}` in `text`.
 *
 * @param text Text with references.
 * @param env Variables; only own properties count.
 * @param missing Called with the name of an unset variable that has no default; must throw.
 * @returns The expanded text.
 */
export function expandVariables(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  missing: (name: string) => never,
): string {
  return text.replace(VARIABLE_PATTERN, (_match, name: string, fallback: string | undefined) => {
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    if (fallback !== undefined) return value === undefined || value === "" ? fallback : value;
    return value ?? missing(name);
  });
}
