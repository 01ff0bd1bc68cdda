import type { z } from '../zod.ts';
import type { ErrorCode } from '../errorCodes.ts';
import * as s from '../schemas.ts';
import type { Route, RouteName } from '../routeTable.ts';

/** One endpoint of the API: a row of the table docs/api.md points to, with the schemas of its parts. */
export interface Endpoint extends Omit<Route, 'reply'> {
  readonly summary: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  /** JSON body, or `'multipart'` for uploads. */
  readonly body?: z.ZodType | 'multipart';
  /** `data` of the success envelope, or `'binary'` for file downloads. */
  readonly reply: z.ZodType | 'binary';
  readonly errors: readonly ErrorCode[];
}

/** Some endpoints of the table, as each resource's file holds them. */
export type EndpointGroup = { readonly [N in RouteName]?: Endpoint };

/** The path parameters of a resource by id. */
export const id = s.idParamSchema;
export const authErrors = [10001, 10400, 10404] as const;
