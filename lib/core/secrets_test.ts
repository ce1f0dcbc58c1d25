import assert from "node:assert/strict";
import {
  isSecretName,
  redactDeep,
  REDACTED,
  redactHeaders,
  redactText,
  secretValuesOf,
  urlSecrets,
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
