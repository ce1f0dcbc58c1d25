// Test helper (not part of the public surface): the secrets the secret tests plant, and the
// search for them in what a run wrote or served.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  messageReply,
  type ReceivedRequest,
  type ScriptedReply,
} from "../lib/agent/_scripted_model_server.ts";

/** Values the secret tests plant; none may appear in anything written or served. */
export const SECRETS = {
  /** A model's API key (`${E2E_KEY}`), which the echoing model repeats. */
  modelKey: "sk-e2e-SECRET-abcdef123456",
  /** A server env value taken from `${SVC_SECRET}`. */
  viaVariable: "svc-Secret-77f3e9a1c2",
  /** A literal `GITHUB_TOKEN` written in the servers config. */
  literalToken: "ghp_LiteralToken0123456789abcdefABCD",
  /** A value of a `${VAR}` with a plain-looking name: any variable a config resolves counts. */
  plainReference: "plain-ref-5c0ffee5",
} as const;

/** The forms a secret could take in written text: as is, JSON-escaped, percent-encoded. */
function forms(secret: string): string[] {
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])];
}

/**
 * Fails naming the secret and where it was found.
 *
 * @param text What was written or served.
 * @param where A name for the message (a file path, an endpoint).
 * @param secrets The values to look for. @default {Object.values(SECRETS)}
 */
export function assertNoSecret(
  text: string,
  where: string,
  secrets: readonly string[] = Object.values(SECRETS),
): void {
  for (const secret of secrets) {
    for (const form of forms(secret)) {
      const at = text.indexOf(form);
      assert.equal(
        at,
        -1,
        `${where} holds the secret ${JSON.stringify(secret)}: …${
          text.slice(Math.max(0, at - 80), at + form.length + 40)
        }…`,
      );
    }
  }
}

/**
 * Every file under a folder (recursively), with its text; a missing folder has none.
 *
 * @param dir The folder.
 * @returns Path and text of each file.
 */
export async function filesUnder(dir: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return out;
    throw e;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...await filesUnder(path));
    else if (e.isFile) out.push({ path, text: await Deno.readTextFile(path) });
  }
  return out;
}

/**
 * The echoing model: first it calls the tool that prints the environment, then it answers with
 * what the tool returned and the API key it received.
 */
export function echoingModel(req: ReceivedRequest): ScriptedReply {
  const messages = req.body.messages as { role: string; content: unknown }[];
  const last = messages[messages.length - 1];
  const results = JSON.stringify(last.content);
  if (!results.includes("tool_result")) {
    const tools = (req.body.tools ?? []) as { name: string }[];
    const env = tools.find((t) => t.name.includes("get-env"))!;
    return messageReply(req.provider, {
      toolCalls: [{ id: "call_0_env", name: env.name, input: {} }],
      usage: { input: 100, output: 20 },
    });
  }
  return messageReply(req.provider, {
    text: `The tool said: ${results}. My key is ${
      req.headers["x-api-key"] ?? req.headers.authorization?.replace(/^Bearer /, "")
    }.`,
    usage: { input: 110, output: 30 },
  });
}

/**
 * A criterion that passes only on the real answer of {@linkcode echoingModel}: it matches the
 * repeated key and the echoed server secret by their first characters, so the suite holds
 * neither whole.
 */
export const REAL_ANSWER_CRITERION = {
  type: "regex",
  pattern: `${SECRETS.viaVariable.slice(0, 10)}[\\s\\S]*My key is ${SECRETS.modelKey.slice(0, 12)}`,
} as const;
