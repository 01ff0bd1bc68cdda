import { describe, expectTypeOf, it } from 'vitest';
import type { Context } from './route.ts';

// Type tests (`vitest --typecheck`, and `tsc` in `pnpm typecheck`): what a handler registered
// with `route(app, services, name, handler)` is given, for endpoints of each shape.

describe('route contexts', () => {
  it('gives the parsed path parameters, as numbers, and nothing for what the endpoint has not', () => {
    expectTypeOf<Context<'getWorkout'>['params']>().toEqualTypeOf<{ id: number }>();
    expectTypeOf<Context<'getWorkout'>['body']>().toEqualTypeOf<undefined>();
    expectTypeOf<Context<'getWorkout'>['query']>().toEqualTypeOf<undefined>();
  });

  it('gives a JSON body parsed by its schema, optional fields optional', () => {
    expectTypeOf<Context<'patchWorkout'>['body']>().toHaveProperty('name');
    expectTypeOf<Context<'patchWorkout'>['body']['shared']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Context<'login'>['body']>().toEqualTypeOf<{ email: string; password: string }>();
  });

  it("gives a query with the schema's defaults and coercions applied", () => {
    expectTypeOf<Context<'workoutRange'>['query']>().toEqualTypeOf<{ from: number; to: number }>();
  });

  it('says a user may be missing, whatever the access (public endpoints may see one)', () => {
    expectTypeOf<Context<'health'>['userId']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Context<'getWorkout'>['userId']>().toEqualTypeOf<number | undefined>();
  });

  it('refuses a name that is not an endpoint of the contract', () => {
    // @ts-expect-error 'getWorkouts' is no endpoint
    type Wrong = Context<'getWorkouts'>;
    expectTypeOf<Wrong>().not.toBeAny();
  });
});
