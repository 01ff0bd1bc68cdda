// subset-font ships no types: the one call build/manualPdf.ts makes.
declare module 'subset-font' {
  // eslint-disable-next-line no-restricted-syntax -- the package's own shape: a default export
  export default function subsetFont(
    font: Uint8Array,
    text: string,
    options?: {
      targetFormat?: 'sfnt' | 'truetype' | 'woff' | 'woff2';
      variationAxes?: Record<string, number | { min: number; max: number; default?: number }>;
    },
  ): Promise<Buffer>;
}
