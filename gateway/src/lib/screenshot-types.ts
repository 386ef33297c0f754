// The pictures a screenshot hash is parsed into (screenshot-hash.ts) and lined up (screenshot-align.ts).

/** A grey picture. */
export interface Grey {
  width: number;
  height: number;
  pixels: Float32Array;
}
/**
 * A grey picture kept compact (a parsed hash is kept a while: decision 079): pixel i is pixels[i] × unit,
 * exactly. The smoothed thumbnail's values are multiples of 1/16 (levels, blurred twice by quarters) and
 * the half's of 1/64, so a Uint16Array holds them without rounding, at half a Float32Array's bytes.
 */
export interface Compact {
  width: number;
  height: number;
  pixels: Uint16Array;
  unit: number;
}
export interface ParsedHash extends Compact {
  coarse: bigint;
  /** The thumbnail at half size, for lining up. */
  half: Compact;
}
