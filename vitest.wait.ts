import { vi } from 'vitest';
import { WAIT_GUARD_MS } from './vitest.guards.ts';

// `vi.waitFor` gives up after one second unless told otherwise, and Vitest has no setting
// for it: here every wait lasts until what it waits for comes, up to the wait guard
// (vitest.guards.ts). A test may still pass its own interval; it passes no timeout.
const waitFor = vi.waitFor.bind(vi);
vi.waitFor = (callback, options) =>
  waitFor(callback, {
    ...(typeof options === 'object' ? options : {}),
    timeout: WAIT_GUARD_MS,
  });
