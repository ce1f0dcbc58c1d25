/**
 * The MCP clients the audit knows: each one's name, the request format its model calls use
 * (the sent form counted), its model family (the default context window) and where its
 * documentation says its settings live. `docs/audit.md` gives the sources.
 *
 * @module
 */
import type { SentFormat } from "../catalog/sent.ts";

/** A client whose configuration the audit reads. `generic`: a file of no known client. */
export type ClientId =
  | "claude-code"
  | "claude-desktop"
  | "cursor"
  | "vscode"
  | "windsurf"
  | "gemini-cli"
  | "codex"
  | "zed"
  | "copilot-cli"
  | "cline"
  | "roo-code"
  | "kiro"
  | "amazon-q"
  | "opencode"
  | "lm-studio"
  | "generic";

/** A model family: what sets the default context window. */
export type ModelFamily = "claude" | "gpt" | "gemini";

/**
 * Default context window per model family, in tokens, when `--context-window` is not given:
 * - `claude` 200,000: the window of every Claude model that has no 1M window
 *   (platform.claude.com, models overview); the larger window is the exception, not the floor;
 * - `gpt` 128,000: GPT-4o's window, the smallest of the OpenAI models the editors offer;
 * - `gemini` 1,048,576: Gemini 2.5's input limit (ai.google.dev, models).
 */
export const DEFAULT_CONTEXT_WINDOW: Readonly<Record<ModelFamily, number>> = {
  claude: 200_000,
  gpt: 128_000,
  gemini: 1_048_576,
};

/** What the audit assumes about one client. */
export interface ClientInfo {
  /** Display name. */
  readonly label: string;
  /** The request format its model calls use by default. */
  readonly format: SentFormat;
  /** Its model family by default. */
  readonly family: ModelFamily;
  /** Why that format: the client's provider. */
  readonly formatWhy: string;
}

/** The clients, by id. */
export const CLIENTS: Readonly<Record<ClientId, ClientInfo>> = {
  "claude-code": {
    label: "Claude Code",
    format: "anthropic-messages",
    family: "claude",
    formatWhy: "Claude Code calls Anthropic's Messages API",
  },
  "claude-desktop": {
    label: "Claude Desktop",
    format: "anthropic-messages",
    family: "claude",
    formatWhy: "Claude Desktop calls Anthropic's Messages API",
  },
  cursor: {
    label: "Cursor",
    format: "openai-chat-completions",
    family: "gpt",
    formatWhy: "Cursor's model is chosen per chat; OpenAI's chat format is assumed",
  },
  vscode: {
    label: "VS Code",
    format: "openai-chat-completions",
    family: "gpt",
    formatWhy: "Copilot's model is chosen per chat; OpenAI's chat format is assumed",
  },
  windsurf: {
    label: "Windsurf",
    format: "openai-chat-completions",
    family: "gpt",
    formatWhy: "Windsurf's model is chosen per chat; OpenAI's chat format is assumed",
  },
  "gemini-cli": {
    label: "Gemini CLI",
    format: "gemini",
    family: "gemini",
    formatWhy: "Gemini CLI calls the Gemini API",
  },
  codex: {
    label: "Codex",
    format: "openai-responses",
    family: "gpt",
    formatWhy: "Codex calls OpenAI's Responses API",
  },
  zed: {
    label: "Zed",
    format: "openai-chat-completions",
    family: "gpt",
    formatWhy: "Zed's model is chosen per thread; OpenAI's chat format is assumed",
  },
  "copilot-cli": {
    label: "Copilot CLI",
    format: "openai-chat-completions",
    family: "gpt",
    formatWhy: "Copilot CLI's model is chosen with /model; OpenAI's chat format is assumed",
  },
  // Cline 4.0 and later send MCP tools as native function tools (cline/cline v4.1.13,
  // apps/vscode/src/sdk/vscode-runtime-builder.ts); its own provider (an OpenAI-compatible
  // gateway) is the default, serving anthropic/claude-sonnet-5 (sdk/packages/shared/src/
  // providers/defaults.ts).
  cline: {
    label: "Cline",
    format: "openai-chat-completions",
    family: "claude",
    formatWhy: "Cline's default provider, its own OpenAI-compatible gateway, serves a Claude " +
      "model (anthropic/claude-sonnet-5); another provider is chosen in its settings",
  },
  // Roo Code builds MCP tools as OpenAI chat tools (RooCodeInc/Roo-Code v3.52.1,
  // src/core/prompts/tools/native-tools/mcp_server.ts); the provider is chosen in its settings.
  "roo-code": {
    label: "Roo Code",
    format: "openai-chat-completions",
    family: "gpt",
    formatWhy: "Roo Code's provider is chosen in its settings; OpenAI's chat format, in which " +
      "it builds its tools, is assumed",
  },
  kiro: {
    label: "Kiro",
    format: "anthropic-messages",
    family: "claude",
    formatWhy: "Kiro's models are Claude models (Auto, Claude Sonnet); Anthropic's Messages " +
      "format is assumed",
  },
  "amazon-q": {
    label: "Amazon Q CLI",
    format: "anthropic-messages",
    family: "claude",
    formatWhy: "Amazon Q's models are Claude models and its service's own request format is " +
      "not published; Anthropic's Messages format is assumed",
  },
  opencode: {
    label: "opencode",
    format: "openai-chat-completions",
    family: "gpt",
    formatWhy: "opencode's model is chosen per session (no model set in its config); OpenAI's " +
      "chat format is assumed",
  },
  "lm-studio": {
    label: "LM Studio",
    format: "openai-chat-completions",
    family: "gpt",
    formatWhy: "LM Studio runs a local model whose chat template renders the tools; the OpenAI " +
      "chat format of LM Studio's own API is assumed",
  },
  generic: {
    label: "Servers config",
    format: "anthropic-messages",
    family: "claude",
    formatWhy: "no client is known for this file; Anthropic's Messages format is assumed",
  },
};

/** Whether a string names a client id. */
export function isClientId(name: string): name is ClientId {
  return Object.hasOwn(CLIENTS, name);
}

/** The model family a sent format implies (for a `--sent-form` override). */
export function familyOf(format: SentFormat): ModelFamily {
  return format === "anthropic-messages" ? "claude" : format === "gemini" ? "gemini" : "gpt";
}
