import { describe, expectTypeOf, it } from 'vitest';
import type { ArgsOf, EndpointName, ReplyOf } from './endpoints.ts';
import type { Access, RouteName } from './routeTable.ts';

// Type tests (`vitest --typecheck`, and `tsc` in `pnpm typecheck`): what the contract's
// generics give a client for a few endpoints of each shape.

describe('ArgsOf', () => {
  it('is the path parameters of an endpoint with a path id, numbers as parsed', () => {
    expectTypeOf<ArgsOf<'getWorkout'>>().toEqualTypeOf<{ params: { id: number } }>();
    // @ts-expect-error an id from the path is a number once parsed, never a string
    const wrong: ArgsOf<'getWorkout'> = { params: { id: '3' } };
    void wrong;
  });

  it('is the JSON body of an endpoint that takes one', () => {
    expectTypeOf<ArgsOf<'login'>>().toEqualTypeOf<{
      body: { email: string; password: string };
    }>();
  });

  it('takes path parameters and body together, and makes the query optional', () => {
    expectTypeOf<ArgsOf<'patchWorkout'>>().toHaveProperty('params');
    expectTypeOf<ArgsOf<'patchWorkout'>>().toHaveProperty('body');
    expectTypeOf<{ query?: object }>().toExtend<ArgsOf<'listWorkouts'>>();
  });

  it('is FormData for an upload, and void for an endpoint that takes nothing', () => {
    expectTypeOf<ArgsOf<'importWorkout'>>().toEqualTypeOf<{ body: FormData }>();
    expectTypeOf<ArgsOf<'health'>>().toEqualTypeOf<void>();
  });
});

describe('ReplyOf', () => {
  it('is the parsed reply of a JSON endpoint', () => {
    expectTypeOf<ReplyOf<'login'>>().toHaveProperty('access').toEqualTypeOf<string>();
    expectTypeOf<ReplyOf<'getWorkout'>>().toHaveProperty('summary');
  });

  it('is a Blob for a file download', () => {
    expectTypeOf<ReplyOf<'workoutFile'>>().toEqualTypeOf<Blob>();
  });
});

describe('route names and access', () => {
  it('names the same endpoints in the route table and the contract', () => {
    expectTypeOf<EndpointName>().toEqualTypeOf<RouteName>();
    expectTypeOf<'getWorkout'>().toExtend<EndpointName>();
    // @ts-expect-error an endpoint the contract does not have
    expectTypeOf<ArgsOf<'noSuchEndpoint'>>();
  });

  it('knows three kinds of access', () => {
    expectTypeOf<Access>().toEqualTypeOf<'public' | 'bearer' | 'owner'>();
  });
});
