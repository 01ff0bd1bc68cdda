// How the API logs: readable lines for a person at a terminal (`pnpm start`, `pnpm dev`),
// JSON lines for a log collector (`LOG_FORMAT=json`, or `NODE_ENV=production`).

export type LogFormat = 'human' | 'json';

type Env = Readonly<Record<string, string | undefined>>;

/** `LOG_FORMAT` when set (`json` or `human`), else JSON in production and lines otherwise. */
export function logFormatFromEnv(env: Env = process.env): LogFormat {
  if (env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'human') return env.LOG_FORMAT;
  if (env.LOG_FORMAT) throw new Error(`LOG_FORMAT must be json or human, not "${env.LOG_FORMAT}"`);
  return env.NODE_ENV === 'production' ? 'json' : 'human';
}

/**
 * At which level each request is logged: a person wants the few lines that matter (requests
 * at debug, `LOG_LEVEL=debug` shows them); a collector keeps every request (info).
 */
export const requestLogLevel = (format: LogFormat): 'debug' | 'info' =>
  format === 'json' ? 'info' : 'debug';

const levelNames: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** Fields every line has, or that the line's text already says. */
const omitted = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err', 'reqId']);

const fieldText = (value: unknown) =>
  typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value);

/**
 * One JSON log line (pino's) as a line for people: time, level, message, the other fields as
 * `key=value`, and an error's stack below it.
 *
 * @example
 * humanLine('{"level":30,"time":0,"msg":"ready","port":8080}'); // '00:00:00 INFO  ready port=8080'
 */
export function humanLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now())
    .toISOString()
    .slice(11, 19);
  const level = (levelNames[entry.level as number] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key, value]) => !omitted.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${fieldText(value)}`);
  const text = [
    time,
    level,
    typeof entry.msg === 'string' ? entry.msg : fieldText(entry.msg ?? ''),
    ...fields,
  ]
    .join(' ')
    .trimEnd();
  const error = entry.err as { stack?: unknown; message?: unknown } | undefined;
  if (!error) return text;
  const detail =
    typeof error.stack === 'string'
      ? error.stack
      : typeof error.message === 'string'
        ? error.message
        : JSON.stringify(error);
  return `${text}\n${detail}`;
}

/** A pino destination that writes each line as `humanLine` makes it. */
export function humanStream(out: { write(text: string): unknown }) {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line) out.write(`${humanLine(line)}\n`);
    },
  };
}

/** The server's logger settings from the environment (`LOG_LEVEL`, `LOG_FORMAT`, `NODE_ENV`). */
export function loggerFromEnv(
  env: Env = process.env,
  out: { write(text: string): unknown } = process.stdout,
): false | { level: string; stream?: ReturnType<typeof humanStream> } {
  if (env.LOG_LEVEL === 'silent') return false;
  const level = env.LOG_LEVEL ?? 'info';
  return logFormatFromEnv(env) === 'json' ? { level } : { level, stream: humanStream(out) };
}
