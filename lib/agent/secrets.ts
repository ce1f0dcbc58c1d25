/**
 * What a run resolved from secrets, gathered into the one {@linkcode Redactor} its boundaries
 * write through: the model keys and whatever the registry resolved from variables, the servers
 * config's credentials (`lib/mcp/secrets.ts`), and the credentials of the environment itself.
 *
 * @module
 */

import {
  environmentSecrets,
  expandVariables,
  knownSecretsIn,
  Redactor,
  referencedValues,
  urlSecrets,
} from "../core/secrets.ts";
import { serversSecrets } from "../mcp/secrets.ts";
import type { ServersConfig } from "../mcp/config.ts";
import type { ModelConfig } from "./types.ts";

/**
 * The secrets of model registry entries: each API key as resolved (whatever it is called, and
 * literal keys too), every value a `${VAR}` in `apiKey` or `baseUrl` resolves to (but the plain
 * variables and locations), secrets a base URL carries, and well-known credentials written in
 * them.
 *
 * @param models Registry entries.
 * @param env The variables they are expanded from.
 * @returns Secret values.
 *
 * @example Usage
 * ```ts
 * import { modelSecrets } from "./secrets.ts";
 * const m = { id: "c", provider: "anthropic" as const, model: "x", apiKey: "${K}" };
 * if (!modelSecrets([m], { K: "sk-ant-secret-1" }).includes("sk-ant-secret-1")) throw new Error();
 * ```
 */
export function modelSecrets(
  models: readonly Pick<ModelConfig, "apiKey" | "baseUrl" | "model">[],
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const out: string[] = [];
  for (const m of models) {
    // (The model's name is provenance, recorded as such: not a secret.)
    const written = [m.apiKey, m.baseUrl ?? ""];
    out.push(...referencedValues(written, env), ...written.flatMap(knownSecretsIn));
    const expand = (text: string) => {
      try {
        return expandVariables(text, env, () => {
          throw new Error("unset");
        });
      } catch {
        return undefined;
      }
    };
    const key = expand(m.apiKey);
    if (key !== undefined) out.push(key);
    const base = m.baseUrl === undefined ? undefined : expand(m.baseUrl);
    if (base !== undefined) out.push(...urlSecrets(base));
  }
  return out;
}

/**
 * The redactor of a run (or a chat, or a workbench): the environment's credentials
 * (`environmentSecrets`), the models' ({@linkcode modelSecrets}) and the servers config's
 * (`serversSecrets`). More are added as they are resolved (`Redactor.add`).
 *
 * @param options Models, servers config, and the variables both are expanded from.
 * @returns The redactor.
 */
export function runRedactor(options: {
  readonly models?: readonly Pick<ModelConfig, "apiKey" | "baseUrl" | "model">[];
  readonly servers?: Pick<ServersConfig, "servers">;
  readonly env: Readonly<Record<string, string | undefined>>;
}): Redactor {
  return new Redactor([
    ...environmentSecrets(options.env),
    ...modelSecrets(options.models ?? [], options.env),
    ...(options.servers === undefined ? [] : serversSecrets(options.servers, options.env)),
  ]);
}
