import { ErrorCode, errorMessage, errorStatus, type ErrorCode as Code } from '@xoss/api-contract';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';

/** A client error with its API code; the error handler turns it into the envelope. */
export class ApiError extends Error {
  readonly code: Code;
  readonly errors: readonly { path: string; message: string }[] | undefined;
  readonly headers: Record<string, string>;
  /** What already holds the same content (a 10409 of an import). */
  readonly existingId: number | undefined;
  constructor(
    code: Code,
    detail: string,
    options: {
      errors?: { path: string; message: string }[];
      headers?: Record<string, string>;
      existingId?: number;
    } = {},
  ) {
    super(detail);
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.existingId = options.existingId;
  }
}

export const notFound = (what: string) => new ApiError(ErrorCode.NotFound, `${what} not found`);

/** Sends the failure envelope of docs/api.md. */
export function sendError(
  reply: FastifyReply,
  code: Code,
  detail: string,
  errors?: readonly { path: string; message: string }[],
  existingId?: number,
): FastifyReply {
  return reply.status(errorStatus[code]).send({
    code,
    msg: errorMessage[code],
    detail,
    ...(errors ? { errors } : {}),
    ...(existingId !== undefined ? { existing_id: existingId } : {}),
  });
}

/** The success envelope. */
export const ok = <T>(data: T) => ({ code: 0 as const, msg: 'success' as const, data });

/** The paths of every string in `value` (JSON-like) that holds U+0000, depth-first. */
function nulPaths(value: unknown, path: string[] = [], found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push(path.join('.'));
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => nulPaths(item, [...path, String(index)], found));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) nulPaths(item, [...path, key], found);
  }
  return found;
}

/**
 * Refuses text with U+0000 (PostgreSQL cannot store it in `text` or `jsonb`) with a 10400
 * naming each field. Every request value goes through here: `parse` below for params,
 * queries and JSON bodies, and the upload reader for multipart fields.
 */
export function refuseNul(value: unknown, where: string): void {
  const paths = nulPaths(value);
  if (paths.length === 0) return;
  const errors = paths.map((path) => ({
    path: path || where,
    message: 'Text must not contain the NUL character (U+0000)',
  }));
  throw new ApiError(
    ErrorCode.ValidationFailed,
    `Please check required fields: ${errors.map((error) => error.path).join(', ')}`,
    { errors },
  );
}

/** Parses with a contract schema; failure is a 10400 listing every problem. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  refuseNul(value, where);
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || where,
    message: issue.message,
  }));
  throw new ApiError(
    ErrorCode.ValidationFailed,
    `Please check required fields: ${errors.map((error) => error.path).join(', ')}`,
    { errors },
  );
}
