import assert from "node:assert/strict";
import {
  argSecrets,
  environmentSecrets,
  isSecretName,
  redactDeep,
  REDACTED,
  redactHeaders,
  Redactor,
  redactText,
  referencedValues,
  secretValuesOf,
  urlSecrets,
  usableSecret,
} from "./secrets.ts";
import { expandVariables } from "./secrets.ts";

Deno.test("isSecretName() is one rule for variables, headers and query parameters", () => {
  const secret = [
    "GITHUB_TOKEN",
    "OPENAI_API_KEY",
    "DB_PASSWORD",
    "PASSWD",
    "AWS_CREDENTIALS",
    "authorization",
    "proxy-authorization",
    "x-api-key",
    "cookie",
    "set-cookie",
    "client_secret",
    "api_key",
    "sig",
    "x-amz-signature",
  ];
  const plain = ["HOME", "PATH", "accept", "content-type", "x-trace", "profile", "design", "LOG"];
  assert.deepEqual(secret.filter((n) => !isSecretName(n)), []);
  assert.deepEqual(plain.filter(isSecretName), []);
});

Deno.test("redactText() replaces the longest secret first and ignores short ones", () => {
  // "abcd1234" contains "abcd": replaced whole, not as "[REDACTED]1234".
  assert.equal(
    redactText("x abcd1234 abcd y", ["abcd", "abcd1234"]),
    `x ${REDACTED} ${REDACTED} y`,
  );
  assert.equal(redactText("key=abc", ["abc"]), "key=abc");
  assert.equal(redactText("nothing", []), "nothing");
});

Deno.test("redactDeep() redacts every string of a value and keeps its shape", () => {
  const value = { a: "tok-9999", b: ["x tok-9999", 3, null, { c: true }], "tok-9999": 1 };
  assert.deepEqual(redactDeep(value, ["tok-9999"]), {
    a: REDACTED,
    b: [`x ${REDACTED}`, 3, null, { c: true }],
    "tok-9999": 1,
  });
  assert.equal(redactDeep(value, ["ab"]), value); // nothing usable: the same object back
});

Deno.test("redactHeaders() hides secret-named headers whole and secret values elsewhere", () => {
  const h = new Headers({ Cookie: "s=1", "x-trace": "sk-12345-tail", accept: "a/b" });
  assert.deepEqual(redactHeaders(h, ["sk-12345"]), {
    accept: "a/b",
    cookie: REDACTED,
    "x-trace": `${REDACTED}-tail`,
  });
});

Deno.test("urlSecrets() and secretValuesOf() pick values by name", () => {
  assert.deepEqual(urlSecrets("http://u:pw12@h/mcp?api_key=a b c&profile=dev&sig=s1234"), [
    "a%20b%20c",
    "a b c",
    "s1234",
    "pw12",
  ]);
  assert.deepEqual(urlSecrets("not a url"), []);
  assert.deepEqual(secretValuesOf({ HOME: "/root", GH_TOKEN: "t", X_KEY: undefined }), ["t"]);
});

const fail = (name: string): never => {
  throw new Error(`missing ${name}`);
};

Deno.test("expandVariables() follows the shell: :- covers unset and empty, a bare reference only unset", () => {
  const env = { SET: "v", EMPTY: "" };
  assert.equal(expandVariables("${SET}/${SET:-d}", env, fail), "v/v");
  assert.equal(expandVariables("${EMPTY:-d}|${UNSET:-d}|${EMPTY}|", env, fail), "d|d||");
  assert.throws(() => expandVariables("x${UNSET}", env, fail), /missing UNSET/);
  // Inherited properties are not variables.
  assert.throws(() => expandVariables("${toString}", env, fail), /missing toString/);
});

Deno.test("Redactor: every form a secret takes in written text; JSON string by string", async () => {
  const key = 'sk-A"b&c<9/Z';
  const r = new Redactor([key, "ollama", "12345678", "plain"]);
  // Words under 12 letters, digits alone and short values are never secrets: they would shred ids.
  assert.deepEqual(r.secrets, [key]);
  for (
    const form of [
      key,
      JSON.stringify(key).slice(1, -1),
      encodeURIComponent(key),
      "sk-A&quot;b&amp;c&lt;9/Z",
      "sk-A&#34;b&#38;c&#60;9/Z",
      'sk-A""b&c<9/Z',
    ]
  ) {
    assert.equal(r.text(`x ${form} y`), `x ${REDACTED} y`, form);
  }
  // JSON: strings (keys too) redacted, numbers and layout kept, one document or JSON Lines.
  const doc = { [key]: 1, a: [`said ${key}`, 12345678], n: 3 };
  assert.equal(
    r.jsonText(JSON.stringify(doc, null, 2) + "\n"),
    JSON.stringify({ [REDACTED]: 1, a: [`said ${REDACTED}`, 12345678], n: 3 }, null, 2) + "\n",
  );
  assert.equal(
    r.jsonText(`{"a":"${JSON.stringify(key).slice(1, -1)}"}\n{"b":2}\n`),
    `{"a":"${REDACTED}"}\n{"b":2}\n`,
  );
  const clean = '{"a":"nothing"}';
  assert.equal(r.jsonText(clean), clean);
  // An event stream split anywhere: each event's data redacted as JSON.
  const events = `event: case\ndata: {"t":"${key}"}\n\nevent: end\ndata: done ${key}\n\n`;
  const bytes = new TextEncoder().encode(events);
  const chunks = [bytes.slice(0, 20), bytes.slice(20, 31), bytes.slice(31)];
  const out = await new Response(
    new ReadableStream({
      start(c) {
        for (const chunk of chunks) c.enqueue(chunk);
        c.close();
      },
    }).pipeThrough(r.eventStream()),
  ).text();
  assert.equal(
    out,
    `event: case\ndata: {"t":"${REDACTED}"}\n\nevent: end\ndata: done ${REDACTED}\n\n`,
  );
});

Deno.test("argSecrets, environmentSecrets and referencedValues find what a config or a shell holds", () => {
  assert.deepEqual(
    argSecrets([
      "--api-key",
      "k-1234567",
      "--token=t-7654321",
      "SECRET_KEY=s-0000111",
      "--verbose",
      "https://u:pw-123456@h/x?sig=abc12345",
      "plain ghp_abcdefghijklmnopqrstuv",
    ]),
    [
      "k-1234567",
      "t-7654321",
      "s-0000111",
      "pw-123456",
      "abc12345",
      "ghp_abcdefghijklmnopqrstuv",
    ],
  );
  assert.deepEqual(
    environmentSecrets({
      OPENAI_API_KEY: "sk-proj-abc123",
      TOKENIZERS_PARALLELISM: "false",
      HOME: "/root",
      NOTES: "see AKIAABCDEFGHIJKLMNOP",
    }),
    ["sk-proj-abc123", "AKIAABCDEFGHIJKLMNOP"],
  );
  assert.deepEqual(
    referencedValues(["--auth ${CREDS}", "${HOME}/x", "${ROOT}", "${DB_URL}", "${MISSING}"], {
      CREDS: "c-987654321",
      HOME: "/root",
      ROOT: "/srv/data",
      DB_URL: "postgres://u:pw-445566@db/x",
    }),
    ["c-987654321", "pw-445566"],
  );
  assert.equal(usableSecret("sk-12345678"), true);
  assert.equal(usableSecret("averylongpassphrase"), true);
  for (const no of ["ollama", "12345678", "short1", "password"]) {
    assert.equal(usableSecret(no), false);
  }
});

Deno.test("Redactor and redactText: the part of a secret a clipped message keeps at its cut", () => {
  const secret = "sk-proj-AAAABBBBCCCCDDDD";
  const r = new Redactor([secret]);
  const both = (text: string) => {
    const out = r.text(text);
    assert.equal(redactText(text, [secret]), out);
    return out;
  };
  // V8's JSON.parse message quotes the first 10 characters of a junk stdout line.
  assert.equal(
    both(`transport: Unexpected token 's', "sk-proj-AA"... is not valid JSON`),
    `transport: Unexpected token 's', "[REDACTED]"... is not valid JSON`,
  );
  // ... or 10 from its middle, cut at both ends.
  assert.equal(
    both(`Unexpected token 'B', ..."AAAABBBBCC"... is not`),
    `Unexpected token 'B', ..."[REDACTED]"... is not`,
  );
  // A message clipped at its end after the secret began.
  assert.equal(both("refused: key=sk-proj-AAAAB..."), "refused: key=[REDACTED]...");
  // A stderr tail that starts inside the secret.
  assert.equal(both("...CCCCDDDD was refused"), "...[REDACTED] was refused");
  assert.equal(both('..."BBCCCCDDDD" was refused'), '..."[REDACTED]" was refused');
  // Words that share no four characters with the secret's ends stay.
  assert.equal(both("Searching files... done"), "Searching files... done");
  assert.equal(both("sk-p... and ...DDD"), "[REDACTED]... and ...DDD");
});

Deno.test("Redactor.json and redactDeep: a value nested 20,000 levels deep, no stack overflow", () => {
  // A server's tools/list with a schema this deep stopped the whole audit (RangeError).
  const depth = 20_000;
  // JSON.parse gives each object an own "__proto__" key, which the copy must keep as a key.
  const build = (leaf: string) =>
    JSON.parse(`${'{"p":['.repeat(depth)}{"s":"${leaf}"}${'],"__proto__":1}'.repeat(depth)}`);
  const expected = JSON.stringify(build("key [REDACTED]"));
  assert.equal(
    JSON.stringify(new Redactor(["sk-12345678"]).json(build("key sk-12345678"))),
    expected,
  );
  assert.equal(JSON.stringify(redactDeep(build("key sk-12345678"), ["sk-12345678"])), expected);
});
