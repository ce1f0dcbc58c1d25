import assert from "node:assert/strict";
import { passAtK, passHatK } from "./pass_at_k.ts";

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);

Deno.test("passAtK() equals 1 − C(n−c,k)/C(n,k) computed by hand", () => {
  close(passAtK(5, 2, 2), 1 - 3 / 10);
  close(passAtK(10, 3, 1), 0.3); // k = 1 is the plain success rate
  close(passAtK(4, 1, 3), 1 - 1 / 4); // C(3,3)/C(4,3) = 1/4
  close(passAtK(3, 0, 2), 0);
  close(passAtK(3, 2, 2), 1); // n − c = 1 < k
});

Deno.test("passHatK() equals C(c,k)/C(n,k) computed by hand", () => {
  close(passHatK(5, 2, 2), 1 / 10);
  close(passHatK(4, 3, 2), 3 / 6);
  close(passHatK(10, 3, 1), 0.3);
  close(passHatK(3, 3, 3), 1);
  close(passHatK(3, 1, 2), 0);
});

Deno.test("pass@k and pass^k throw RangeError outside their domain", () => {
  assert.throws(() => passAtK(0, 0, 1), RangeError);
  assert.throws(() => passAtK(3, 4, 1), RangeError);
  assert.throws(() => passHatK(3, 1, 4), RangeError);
  assert.throws(() => passHatK(3, 1, 0), RangeError);
});
