/**
 * The shared theme of visualizations: one categorical palette (Observable's `observable10`
 * colours), agent colours by sorted position so every chart of a page colours an agent alike,
 * and the good/bad colours of regressions.
 *
 * @module
 */
import type { VizContext, VizTheme } from "./types.ts";

/** Observable Plot's `observable10` categorical colours. */
export const PALETTE: readonly string[] = [
  "#4269d0",
  "#efb118",
  "#ff725c",
  "#6cc5b0",
  "#3ca951",
  "#ff8ab7",
  "#a463f2",
  "#97bbf5",
  "#9c6b4e",
  "#9498a0",
];

/** The default theme (light, print-friendly). */
export const DEFAULT_THEME: VizTheme = {
  palette: PALETTE,
  colorOf(id: string, domain: readonly string[]): string {
    const i = [...domain].sort().indexOf(id);
    return PALETTE[(i < 0 ? 0 : i) % PALETTE.length];
  },
  ink: "#222",
  muted: "#bbb",
  good: "#1a9850",
  bad: "#d73027",
};

/** Full-row and half-row widths of a dashboard, CSS px (MAVERIK's 1184 and 580). */
export const WIDTHS = { full: 1184, half: 580 } as const;

/**
 * A visualization context for one instance.
 *
 * @param document Document to draw into.
 * @param layout Layout of the instance.
 * @param widths Full and half widths, px. @default {WIDTHS}
 * @returns The context.
 */
export function vizContext(
  document: Document,
  layout: "half" | "full",
  widths: { readonly full: number; readonly half: number } = WIDTHS,
): VizContext {
  return {
    document,
    fullWidth: widths.full,
    halfWidth: widths.half,
    width: layout === "full" ? widths.full : widths.half,
    theme: DEFAULT_THEME,
  };
}
