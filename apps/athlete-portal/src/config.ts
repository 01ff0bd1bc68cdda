import { tileUrlFrom } from '@xoss/ui-kit';

/** The map tile service, as the build's `VITE_TILE_URL` says (ui-kit's `tileUrlFrom`). */
export const TILE_URL = tileUrlFrom(import.meta.env.VITE_TILE_URL as string | undefined);
