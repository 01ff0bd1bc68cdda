// Preview pictures of shared rides, most recently made last, each with the fingerprint of
// what it shows: a rename or a change of privacy or of what is shown makes a new one, and
// stopping sharing (or deleting the ride) drops it.

const SIZE = 200;
const previews = new Map<string, { fingerprint: string; png: Uint8Array }>();

/** The cached picture of a share link, if it still shows the same thing. */
export function cachedPreview(shareId: string, fingerprint: string): Uint8Array | undefined {
  const entry = previews.get(shareId);
  return entry?.fingerprint === fingerprint ? entry.png : undefined;
}

export function keepPreview(shareId: string, fingerprint: string, png: Uint8Array): void {
  previews.delete(shareId);
  previews.set(shareId, { fingerprint, png });
  if (previews.size > SIZE) previews.delete(previews.keys().next().value!);
}

/** Drops the cached picture of a share link (sharing stopped, ride renamed or deleted). */
export function forgetPreview(shareId: string | null | undefined): void {
  if (shareId) previews.delete(shareId);
}
