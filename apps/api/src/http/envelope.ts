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

/**
 * A reply's data already written as JSON: a reply many visitors ask for unchanged (a share
 * link's streams) is serialized once and kept, not walked again for every request.
 */
export class SerializedData {
  /** The whole success envelope around the data. */
  readonly envelope: string;
  constructor(data: unknown) {
    this.envelope = JSON.stringify(ok(data));
  }
}

/** A value met while walking a request value, with the way back to the root for its path. */
interface Step {
  readonly value: unknown;
  readonly key: string;
  readonly up: Step | undefined;
}

const pathOf = (step: Step): string => {
  const keys: string[] = [];
  for (let at: Step | undefined = step; at?.up !== undefined; at = at.up) keys.push(at.key);
  return keys.reverse().join('.');
};

/**
 * The paths of every string in `value` (JSON-like) that holds U+0000, depth-first. It walks
 * with its own stack, not by recursion, so no nesting, however deep, overflows the call stack.
 */
function nulPaths(value: unknown): string[] {
  const found: string[] = [];
  const stack: Step[] = [{ value, key: '', up: undefined }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    const item = step.value;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) found.push(pathOf(step));
    } else if (typeof item === 'object' && item !== null) {
      // Pushed last to first, so they come off the stack in order.
      const entries: [string, unknown][] = Object.entries(item);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index]!;
        stack.push({ value: child, key, up: step });
      }
    }
  }
  return found;
}

/**
 * How deep a JSON request body may nest. The deepest body of the contract (a device layout)
 * nests a handful of levels; a body nested thousands deep is only an attack on recursive code
 * (zod, the database's jsonb, ours).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Refuses a JSON text nested deeper than `MAX_JSON_DEPTH` with a 10400, before it is parsed.
 * One pass over the characters, brackets inside strings skipped; whether the text is valid
 * JSON is left to the parser.
 */
export function refuseDeepJson(text: string): void {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index++; // a backslash: the next character is escaped
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b || char === 0x7b) {
      if (++depth > MAX_JSON_DEPTH)
        throw new ApiError(
          ErrorCode.ValidationFailed,
          `The JSON body is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`,
        );
    } else if (char === 0x5d || char === 0x7d) {
      depth--;
    }
  }
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
