/**
 * Provenance tags carried by every headline number.
 *
 * - `measured`: observed directly (a token count, a latency);
 * - `computed`: arithmetic over measured numbers (a savings ratio);
 * - `estimated`: a model with stated assumptions (a session cost).
 *
 * @module
 */

/** How a number was obtained. */
export type Provenance = "measured" | "computed" | "estimated";
