/**
 * Calibration files: reading one (`--calibration FILE`) and fitting one on a provider's counts
 * (`deno task calibrate-tokens`).
 *
 * Fit: one count request per sampled tool (alone) and one without tools; each sample's billed
 * tokens `y` (with less without) against its features `x` (`estimate.ts`, the single tool plus
 * the catalog wrapper it is sent in) by least squares, `y ≈ intercept + Σ b_f x_f` (the
 * intercept is the fixed tool-use overhead every sample pays). The interval comes from the
 * residuals: the 5th and 95th percentiles of `y / ŷ` scale the coefficients (so a catalog's
 * interval is as wide, relatively, as the spread of single tools, which is conservative for a
 * catalog of many tools whose errors partly cancel).
 *
 * @module
 */
import type {
  BillingProvider,
  Calibration,
  CalibrationEntry,
  Features,
  Interval,
} from "./estimate.ts";
import { BILLING_PROVIDERS } from "./estimate.ts";

/** Features fitted per provider (OpenAI's two cookbook parts share one coefficient). */
export const FIT_FEATURES: Readonly<Record<BillingProvider, readonly string[]>> = {
  anthropic: ["prose", "structure", "nonAscii"],
  openai: ["cookbook"],
  gemini: ["json"],
};

/** One fitted sample. */
export interface CalibrationSample {
  /** Tool id. */
  readonly tool: string;
  /** Billed tokens of the tool alone (with less without), measured. */
  readonly tokens: number;
  /** Its features (tool plus wrapper). */
  readonly features: Features;
}

function fitFeatures(provider: BillingProvider, f: Features): number[] {
  return FIT_FEATURES[provider].map((name) =>
    name === "cookbook" ? (f.cookbookTop ?? 0) + (f.cookbookNested ?? 0) : (f[name] ?? 0)
  );
}

/** Solves `A x = b` (small, dense) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    const d = m[c][c];
    if (Math.abs(d) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const k = m[r][c] / d;
      for (let j = c; j <= n; j++) m[r][j] -= k * m[c][j];
    }
  }
  return m.map((row, i) => Math.abs(row[i]) < 1e-12 ? 0 : row[n] / row[i]);
}

const quantile = (sorted: readonly number[], q: number): number => {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
};

/**
 * Fits one calibration entry on samples.
 *
 * @param provider Provider.
 * @param model Model the counts came from (the entry matches it exactly).
 * @param samples At least `features + 2` samples.
 * @returns The entry, and its fit quality (median absolute relative error, in [0, ∞)).
 * @throws {RangeError} With too few samples.
 */
export function fitEntry(
  provider: BillingProvider,
  model: string,
  samples: readonly CalibrationSample[],
): { entry: CalibrationEntry; medianAbsError: number } {
  const names = FIT_FEATURES[provider];
  if (samples.length < names.length + 2) {
    throw new RangeError(
      `Cannot fit ${provider} on ${samples.length} samples: need at least ${names.length + 2}`,
    );
  }
  const k = names.length + 1;
  const ata = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const atb = new Array<number>(k).fill(0);
  for (const s of samples) {
    const x = [1, ...fitFeatures(provider, s.features)];
    for (let i = 0; i < k; i++) {
      atb[i] += x[i] * s.tokens;
      for (let j = 0; j < k; j++) ata[i][j] += x[i] * x[j];
    }
  }
  // A tiny ridge keeps a feature absent from every sample (no non-ASCII text) solvable.
  for (let i = 1; i < k; i++) ata[i][i] += 1e-6;
  const beta = solve(ata, atb).map((v, i) => i === 0 ? v : Math.max(0, v));
  const predict = (s: CalibrationSample) =>
    fitFeatures(provider, s.features).reduce((sum, x, i) => sum + beta[i + 1] * x, beta[0]);
  const ratios = samples.map((s) => {
    const p = predict(s);
    return p > 0 ? s.tokens / p : 1;
  }).sort((a, b) => a - b);
  const lo = Math.min(1, quantile(ratios, 0.05));
  const hi = Math.max(1, quantile(ratios, 0.95));
  const errors = ratios.map((r) => Math.abs(r - 1)).sort((a, b) => a - b);
  const coef = (b: number): Interval => ({ low: b * lo, mid: b, high: b * hi });
  const coefficients: Record<string, Interval> = {};
  names.forEach((name, i) => {
    if (name === "cookbook") {
      coefficients.cookbookTop = coef(beta[i + 1]);
      coefficients.cookbookNested = coef(beta[i + 1]);
    } else coefficients[name] = coef(beta[i + 1]);
  });
  return {
    entry: {
      provider,
      models: `^${model.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`,
      label: `${provider} ${model}, fitted on ${samples.length} tools`,
      intercept: { low: beta[0], mid: beta[0], high: beta[0] },
      coefficients,
      sources: ["fit"],
    },
    medianAbsError: quantile(errors, 0.5),
  };
}

/**
 * Reads a calibration file.
 *
 * @param text The file's text.
 * @param path For messages.
 * @returns The calibration.
 * @throws {SyntaxError} When it is not JSON.
 * @throws {TypeError} When it is not a calibration (names the field at fault).
 */
export function parseCalibration(text: string, path = "<memory>"): Calibration {
  const c = JSON.parse(text) as Partial<Calibration>;
  const bad = (what: string) => new TypeError(`${path}: not a token calibration: ${what}`);
  if (c.format !== "mcpmeter-token-calibration") {
    throw bad(`"format" is not "mcpmeter-token-calibration"`);
  }
  if (c.formatVersion !== 1) throw bad(`"formatVersion" is not 1`);
  if (typeof c.name !== "string" || typeof c.method !== "string") {
    throw bad(`"name" or "method" missing`);
  }
  if (!Array.isArray(c.entries) || c.entries.length === 0) throw bad(`"entries" is empty`);
  const num = (v: unknown) => typeof v === "number" && Number.isFinite(v);
  const isIv = (v: unknown) => {
    const i = v as Interval | undefined;
    return num(i?.low) && num(i?.mid) && num(i?.high);
  };
  c.entries.forEach((e, i) => {
    if (!BILLING_PROVIDERS.includes(e.provider)) throw bad(`entries[${i}].provider`);
    if (e.models !== null && typeof e.models !== "string") throw bad(`entries[${i}].models`);
    if (typeof e.models === "string") {
      try {
        new RegExp(e.models);
      } catch {
        throw bad(`entries[${i}].models is not a regular expression`);
      }
    }
    if (!isIv(e.intercept)) throw bad(`entries[${i}].intercept`);
    for (const [k, v] of Object.entries(e.coefficients ?? {})) {
      if (!isIv(v)) throw bad(`entries[${i}].coefficients.${k}`);
      // Tokens per unit of a feature: never negative (fitEntry clamps them at 0).
      const iv = v as Interval;
      if (Math.min(iv.low, iv.mid, iv.high) < 0) {
        throw bad(`entries[${i}].coefficients.${k} is below 0`);
      }
    }
  });
  return { sources: [], ...c } as Calibration;
}
