import { DEFAULT_TILE_URL } from '@xoss/ui-kit';

/**
 * The map tile service: OpenStreetMap unless the build sets `VITE_TILE_URL` (`none` for
 * offline runs and tests: maps draw without a base map).
 */
export const TILE_URL: string | null =
  import.meta.env.VITE_TILE_URL === 'none'
    ? null
    : ((import.meta.env.VITE_TILE_URL as string | undefined) ?? DEFAULT_TILE_URL);
