import { configure } from '@testing-library/react';
import { WAIT_GUARD_MS } from './vitest.guards.ts';

// `waitFor` and `findBy…` wait for what they wait for (an element, a text); the time they
// are given is a guard against a hang, not a budget: on a loaded 2-core machine a page's
// first render of a lazily loaded chunk can take seconds where an idle one takes 100 ms.
configure({ asyncUtilTimeout: WAIT_GUARD_MS });
