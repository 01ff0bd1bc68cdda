/**
 * The two guards of every test here (README: Tests on a loaded machine). Neither is a budget:
 * a test waits for what it waits for (an event, a row, a line, an element), and a loaded
 * 2-core machine may take minutes where an idle one takes a second. A guard only turns a hang
 * into a failure that names what never came.
 */

/** How long a test or hook may run before it is taken for stuck. */
export const HANG_GUARD_MS = 600_000;

/**
 * How long one wait inside a test may last: `vi.waitFor`, `expect.poll`, Testing Library's
 * `waitFor` and `findBy…`, and every Playwright action, navigation and locator wait. Shorter
 * than the hang guard, so a wait that never ends fails with its own message.
 */
export const WAIT_GUARD_MS = 300_000;
