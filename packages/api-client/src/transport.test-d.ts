import type { ErrorCode } from '@xoss/api-contract/routes';
import { describe, expectTypeOf, it } from 'vitest';
import {
  apiFailureOf,
  isErrorReply,
  type ApiErrorReply,
  type ApiFailure,
  type ApiNoReply,
  type CallResult,
} from './transport.ts';

declare const failure: ApiFailure;
declare const result: CallResult<{ id: number }>;

describe('ApiFailure', () => {
  it('is told apart by status: a name for no reply, a number for an HTTP error', () => {
    expectTypeOf<ApiNoReply['status']>().toEqualTypeOf<
      'NETWORK_ERROR' | 'TIMEOUT_ERROR' | 'ABORTED' | 'PARSING_ERROR'
    >();
    expectTypeOf<ApiErrorReply['status']>().toEqualTypeOf<number>();
    // @ts-expect-error no reply has no error code
    void failure.code;
    if (isErrorReply(failure)) expectTypeOf(failure.code).toEqualTypeOf<ErrorCode | undefined>();
    else expectTypeOf(failure).toEqualTypeOf<ApiNoReply>();
  });

  it('is found in an error of unknown type', () => {
    expectTypeOf(apiFailureOf).parameter(0).toEqualTypeOf<unknown>();
    expectTypeOf(apiFailureOf).returns.toEqualTypeOf<ApiFailure | undefined>();
  });
});

describe('CallResult', () => {
  it('is the one result shape: a value, or the failure', () => {
    if (result.ok) expectTypeOf(result.value).toEqualTypeOf<{ id: number }>();
    else expectTypeOf(result.error).toEqualTypeOf<ApiFailure>();
  });
});
