/**
 * Chat: `POST /api/chat/{sessionId}` `{agentId, message}` answers with a Server-Sent Events
 * stream (`status`, `tool_call`, `tool_result`, `answer`, `usage`, `error`, `done`);
 * `DELETE /api/chat/{sessionId}` ends the session. The Chat page talks to one agent through the
 * same loop as `deno task chat`.
 *
 * @module
 */

import { streamSSE } from "hono/streaming";
import type { WorkbenchFeature } from "../app.ts";
import { WorkbenchError } from "../_paths.ts";
import { readJsonBody } from "../http.ts";
import { html, page } from "../html.ts";

/** The chat feature. */
export const chatPage: WorkbenchFeature = {
  id: "chat",
  nav: [{ href: "/chat", title: "Chat", order: 30 }],
  register(app, ctx) {
    app.post("/api/chat/:sessionId", async (c) => {
      const chat = ctx.chat;
      if (chat === undefined) throw new WorkbenchError(503, "chat is not available on this server");
      const body = await readJsonBody(c) as { agentId?: unknown; message?: unknown } | null;
      const sessionId = c.req.param("sessionId");
      return streamSSE(c, async (stream) => {
        const emit = (event: string, data: unknown) =>
          stream.writeSSE({ event, data: JSON.stringify(data) });
        try {
          await chat.send(sessionId, body?.agentId as string, body?.message as string, emit);
        } catch (e) {
          await emit("error", { message: String((e as Error).message).split("\n")[0] });
        }
        await emit("done", {});
      });
    });
    app.delete("/api/chat/:sessionId", async (c) => {
      await ctx.chat?.end(c.req.param("sessionId"));
      return c.body(null, 204);
    });
    app.get("/chat", async (c) => {
      const agents = await ctx.config.loadAgents();
      const options = agents.map((a) =>
        html`<option value="${a.id}">${a.id} (${a.model}, ${a.exposure})</option>`
      );
      return c.html(page(ctx, {
        title: "Chat",
        active: "/chat",
        body: html`
          <p class="muted">
            One agent, the same loop as <code>deno task chat</code>: its model, servers, exposure mode
            and loop. The conversation is kept until you change agent or reload; tool calls appear as
            they happen.
          </p>
          <form id="chat-form" class="card chat">
            <div class="field" data-field="agentId">
              <label>Agent <select name="agentId">${options}</select></label>
            </div>
            <div id="chat-log" class="chat-log" aria-live="polite">
              <p class="muted placeholder">No messages yet.</p>
            </div>
            <div class="chat-input">
              <div class="field" style="flex:1" data-field="message">
                <input type="text" name="message" aria-label="Message" style="width:100%"
                  placeholder="Ask the agent…" autocomplete="off">
              </div>
              <div class="field"><button type="submit">Send</button></div>
            </div>
            <div class="form-error field-error"></div>
          </form>
        `,
        script: "chatPage",
      }));
    });
  },
};
