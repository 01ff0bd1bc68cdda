import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from './blobStore.ts';
import { configFromEnv } from './config.ts';
import { openDatabase } from './db/db.ts';
import { humanLine, logFormatFromEnv, loggerFromEnv, requestLogLevel } from './logging.ts';
import { buildServer } from '../server.ts';
import { AnalysisPool } from '../imports/pool.ts';

describe('the log format', () => {
  it('is lines for people unless LOG_FORMAT=json or in production', () => {
    expect(logFormatFromEnv({})).toBe('human');
    expect(logFormatFromEnv({ NODE_ENV: 'development' })).toBe('human');
    expect(logFormatFromEnv({ LOG_FORMAT: 'json' })).toBe('json');
    expect(logFormatFromEnv({ NODE_ENV: 'production' })).toBe('json');
    expect(logFormatFromEnv({ NODE_ENV: 'production', LOG_FORMAT: 'human' })).toBe('human');
    expect(() => logFormatFromEnv({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('logs requests at debug for people and at info for a collector', () => {
    expect(requestLogLevel('human')).toBe('debug');
    expect(requestLogLevel('json')).toBe('info');
  });

  it('writes JSON lines as is and readable lines through a stream', () => {
    expect(loggerFromEnv({ LOG_FORMAT: 'json' })).toEqual({ level: 'info' });
    expect(loggerFromEnv({ LOG_LEVEL: 'silent' })).toBe(false);
    const human = loggerFromEnv({ LOG_LEVEL: 'debug' });
    expect(human && human.level).toBe('debug');
    expect(human && human.stream).toBeDefined();
  });

  it('turns a pino line into time, level, message and fields, with an error’s stack below', () => {
    const time = Date.UTC(2026, 10, 23, 21, 5, 3);
    expect(
      humanLine(
        JSON.stringify({ level: 30, time, pid: 1, hostname: 'h', msg: 'ready', port: 8080 }),
      ),
    ).toBe('21:05:03 INFO  ready port=8080');
    expect(
      humanLine(
        JSON.stringify({ level: 50, time, msg: 'failed', err: { stack: 'Error: x\n    at y' } }),
      ),
    ).toBe('21:05:03 ERROR failed\nError: x\n    at y');
    expect(humanLine(JSON.stringify({ level: 40, time, msg: 'w', note: 'two words' }))).toBe(
      '21:05:03 WARN  w note="two words"',
    );
    expect(humanLine('not json\n')).toBe('not json');
  });
});

describe('the server’s log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'xoss-log-'));
  const pool = new AnalysisPool(1);
  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function linesOf(level: string, format: 'human' | 'json') {
    const lines: string[] = [];
    const out = { write: (text: string) => lines.push(...text.split('\n').filter(Boolean)) };
    const logger = loggerFromEnv({ LOG_LEVEL: level, LOG_FORMAT: format }, out);
    const db = await openDatabase();
    const server = await buildServer({
      db,
      blobs: new LocalBlobStore(join(dir, 'files')),
      config: configFromEnv({}),
      pool,
      logger: logger && format === 'json' ? { ...logger, stream: out } : logger,
      requestLogLevel: requestLogLevel(format),
    });
    await server.inject({ method: 'GET', url: '/api/health' });
    await server.close();
    await db.close();
    return lines;
  }

  it('has no line per request at info for people, one at debug', async () => {
    expect((await linesOf('info', 'human')).filter((line) => line.includes('/api/health'))).toEqual(
      [],
    );
    const debug = (await linesOf('debug', 'human')).filter((line) => line.includes('/api/health'));
    expect(debug).toHaveLength(1);
    expect(debug[0]).toMatch(
      /^\d\d:\d\d:\d\d DEBUG request completed method=GET url=\/api\/health statusCode=200 ms=\d+$/,
    );
  });

  it('has one JSON line per request at info for a collector', async () => {
    const lines = (await linesOf('info', 'json')).filter((line) => line.includes('/api/health'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 30,
      msg: 'request completed',
      method: 'GET',
      url: '/api/health',
      statusCode: 200,
    });
  });
});
