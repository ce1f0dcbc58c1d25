/**
 * Browser helpers shared by the page controllers: element lookup, the JSON API call, field
 * errors, number formats and a Server-Sent Events reader. Every function here is served as
 * source (see `mod.ts`): it may use other exported functions of `client/`, browser globals and
 * nothing else from its module.
 *
 * @module
 */

/** A JSON object as the API sends it. */
export type Json = Record<string, unknown>;

/** The first element matching `sel` under `root`. */
export function $<T extends Element = HTMLElement>(
  sel: string,
  root: ParentNode = document,
): T | null {
  return root.querySelector(sel) as T | null;
}

/** Every element matching `sel` under `root`. */
export function $$<T extends Element = HTMLElement>(sel: string, root: ParentNode = document): T[] {
  return Array.from(root.querySelectorAll(sel)) as T[];
}

/** One API call with a JSON body; a body that is not JSON comes back as `{error: text}`. */
export async function api(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ ok: boolean; status: number; data: Json }> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  let data: Json = {};
  const text = await res.text();
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = { error: text };
  }
  return { ok: res.ok, status: res.status, data };
}

/** Removes the error marks of a form. */
export function clearErrors(root: ParentNode) {
  for (const el of $$(".field.invalid", root)) el.classList.remove("invalid");
  for (const el of $$(".field-error", root)) el.textContent = "";
}

/** Puts an error on the field it names (or its closest named ancestor), else on the form. */
export function showError(root: ParentNode, field: string | undefined, message: string) {
  let target: HTMLElement | null = null;
  let f = field ?? "";
  while (f !== "" && target === null) {
    target = $(`[data-field="${CSS.escape(f)}"]`, root);
    const cut = Math.max(f.lastIndexOf("."), f.lastIndexOf("["));
    f = cut > 0 ? f.slice(0, cut) : "";
  }
  if (target !== null) {
    target.classList.add("invalid");
    let msg = $(".field-error", target);
    if (msg === null) {
      msg = document.createElement("div");
      msg.className = "field-error";
      target.appendChild(msg);
    }
    msg.textContent = message;
    return;
  }
  const general = $(".form-error", root);
  if (general !== null) general.textContent = message;
  else alert(message);
}

/** Shows an API refusal on its field: `{error, field?}`. */
export function showRefusal(root: ParentNode, data: Json) {
  showError(root, data.field as string | undefined, String(data.error));
}

/** A count with thousands separators (`234,697`), `n/a` for none. */
export function fmtInt(x: number | null): string {
  return x === null ? "n/a" : Math.round(x).toLocaleString("en-US");
}

/** US dollars to the micro-dollar, `n/a` for none. */
export function fmtUsd(x: number | null): string {
  return x === null ? "n/a" : `$${x.toFixed(6)}`;
}

/** A number field's value: a number, `undefined` when empty, else the text (the server says why). */
export function numberValue(input: HTMLInputElement | null): unknown {
  if (input === null) return undefined;
  const v = input.value.trim();
  if (v === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
}

/** Sets `obj[key]`, or deletes it when `value` is `undefined`. */
export function setOrDrop(obj: Json, key: string, value: unknown) {
  if (value === undefined) delete obj[key];
  else obj[key] = value;
}

/** Reads a `text/event-stream` response body, calling `on` per event. */
export async function readEvents(res: Response, on: (event: string, data: Json) => void) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    buf += value;
    let cut;
    while ((cut = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? "{}";
      on(event, JSON.parse(data));
    }
  }
}
