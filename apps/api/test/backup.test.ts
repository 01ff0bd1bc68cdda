import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/platform/db/db.ts';
import { demoGpx } from '../src/commands/seed.ts';
import { fitFile } from './harness.ts';
import {
  folderFiles,
  freePort,
  printed,
  runScript,
  tableRows,
  type ApiProcess,
} from './processes.ts';

// `pnpm backup` and `pnpm restore` on the embedded setup, as an operator runs them: the product
// runs on a data folder with rides, devices, shares, settings and a routebook written through
// the API; one backup is taken while two riders import and read, another once they stop.
// Each is restored into an empty folder. The quiet one holds every row of every table and
// every file of the source; the one under load holds whole imports only (every file its rows
// name, byte for byte, every ride acknowledged before it began) and the product starts on it
// with the sessions of the source.

const PASSWORD = 'backups that restore 42';
const folders: string[] = [];
const folder = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `xoss-backup-${name}-`));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

async function startProduct(dataDir: string): Promise<{ proc: ApiProcess; base: string }> {
  const port = await freePort();
  const proc = runScript('main.ts', {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    DEMO_DATA: '0',
    LOG_LEVEL: 'warn',
    // No JWT_SECRET: the key kept in the data folder is backed up with it.
    JWT_SECRET: undefined,
    REQUESTS_PER_RIDER: '1000',
    REQUESTS_PER_ADDRESS: '1000',
    PASSWORD_HASHES_PER_SECOND: '1000',
  });
  await printed(proc, 'XOSS is ready at');
  return { proc, base: `http://127.0.0.1:${port}` };
}

/** `pnpm backup DIR` / `pnpm restore DIR` (the command the root scripts run). */
async function command(
  name: 'backup' | 'restore',
  dataDir: string,
  dir: string,
): Promise<{ code: number | null; output: string }> {
  const proc = runScript('commands/backupCommand.ts', { DATA_DIR: dataDir }, [name, dir]);
  const code = await proc.exited;
  return { code, output: proc.output() };
}

describe('backups of the embedded setup', () => {
  it('restores a backup taken under load and one taken at rest, row for row and byte for byte', async () => {
    const source = folder('source');
    for (const [email, name] of [
      ['one@example.com', 'One'],
      ['two@example.com', 'Two'],
    ] as const) {
      const created = runScript(
        'commands/createUser.ts',
        { DATA_DIR: source, XOSS_PASSWORD: PASSWORD },
        [email, name],
      );
      expect(await created.exited, created.output()).toBe(0);
    }
    let { proc, base } = await startProduct(source);
    try {
      const login = async (email: string) => {
        const reply = await fetch(`${base}/api/v1/jwt-token/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: PASSWORD }),
        });
        expect(reply.status).toBe(200);
        return ((await reply.json()) as { data: { access: string } }).data.access;
      };
      const riders = [await login('one@example.com'), await login('two@example.com')];
      const json = (access: string) => ({
        authorization: `Bearer ${access}`,
        'content-type': 'application/json',
      });
      const importRide = async (access: string, seed: number) => {
        const form = new FormData();
        form.set('file', new File([fitFile(600, seed, 1_790_000_000 + seed * 86_400)], 'r.fit'));
        const reply = await fetch(`${base}/api/v2/workouts/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${access}`, 'idempotency-key': `ride-key-${seed}` },
          body: form,
        });
        expect(reply.status, await reply.clone().text()).toBe(201);
        return ((await reply.json()) as { data: { id: number } }).data.id;
      };
      // What the riders wrote before: rides, a device, a share, settings, a routebook.
      const [first] = [await importRide(riders[0]!, 1), await importRide(riders[1]!, 2)];
      const shared = await fetch(`${base}/api/v2/workouts/${first}/`, {
        method: 'PATCH',
        headers: json(riders[0]!),
        body: JSON.stringify({ shared: true }),
      });
      expect(shared.status).toBe(200);
      const shareId = ((await shared.json()) as { data: { share_id: string } }).data.share_id;
      const device = await fetch(`${base}/api/v2/devices/`, {
        method: 'POST',
        headers: json(riders[0]!),
        body: JSON.stringify({ serial: 'NAVP-0777', model: 'NAV+' }),
      });
      expect(device.status).toBe(201);
      // The rider's id, as the token names it.
      const me = (
        JSON.parse(Buffer.from(riders[0]!.split('.')[1]!, 'base64url').toString()) as {
          sub: string;
        }
      ).sub;
      const settings = await fetch(`${base}/api/v2/athlete/${me}/`, {
        method: 'PATCH',
        headers: json(riders[0]!),
        body: JSON.stringify({ settings: { ftp: 255, max_hr: 188 } }),
      });
      expect(settings.status).toBe(200);
      const gpx = new FormData();
      gpx.set('title', 'Bay loop');
      gpx.set('file', new File([demoGpx(3, 1200, false)], 'loop.gpx'));
      const routebook = await fetch(`${base}/api/v2/routebooks/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${riders[0]!}` },
        body: gpx,
      });
      expect(routebook.status).toBe(201);

      // Load: both riders import rides and read theirs until told to stop.
      let loading = true;
      const acknowledged: number[] = [];
      const deletedRides: number[] = [];
      let seed = 10;
      const load = riders.map(async (access) => {
        while (loading) {
          acknowledged.push(await importRide(access, seed++));
          // And one imported and deleted again: its files go while the backup copies.
          const gone = await importRide(access, seed++);
          const deleted = await fetch(`${base}/api/v2/workouts/${gone}/`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${access}` },
          });
          expect(deleted.status).toBe(200);
          deletedRides.push(gone);
          const list = await fetch(`${base}/api/v2/workouts/`, { headers: json(access) });
          expect(list.status).toBe(200);
          const rides = ((await list.json()) as { data: { results: { id: number }[] } }).data;
          const detail = await fetch(`${base}/api/v2/workouts/${rides.results[0]!.id}/`, {
            headers: json(access),
          });
          expect(detail.status).toBe(200);
        }
      });
      while (acknowledged.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
      const before = [...acknowledged];
      const underLoad = join(folder('under-load'), 'backup');
      const taken = await command('backup', source, underLoad);
      loading = false;
      await Promise.all(load);
      expect(taken.code, taken.output).toBe(0);
      expect(taken.output).toContain('a snapshot of the running server');
      // The socket and the snapshot are the owner's alone.
      expect(statSync(join(source, 'admin.sock')).mode & 0o777).toBe(0o600);
      expect(statSync(join(underLoad, 'database.tar')).mode & 0o777).toBe(0o600);
      expect(statSync(underLoad).mode & 0o777).toBe(0o700);
      // A second process on the data folder in use is refused, before it opens the database.
      const second = runScript('main.ts', {
        DATA_DIR: source,
        PORT: String(await freePort()),
        DEMO_DATA: '0',
        JWT_SECRET: undefined,
      });
      expect(await second.exited).not.toBe(0);
      expect(second.output()).toContain('Another server runs on');

      // At rest: nothing changes between this snapshot and the stop, once the rides' analysis
      // computed in the background after their imports is done (`/api/ready` says how much
      // is left, to the machine itself).
      for (;;) {
        const ready = (await (await fetch(`${base}/api/ready`)).json()) as {
          data: { checks: { queue: { analysing: number } } };
        };
        if (ready.data.checks.queue.analysing === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const atRest = join(folder('at-rest'), 'backup');
      const quiet = await command('backup', source, atRest);
      expect(quiet.code, quiet.output).toBe(0);
      expect(await proc.stop(), proc.output()).toBe(0);

      // Restores go into empty folders only.
      const refused = await command('restore', source, atRest);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain('is not empty');
      const restoredQuiet = join(folder('restored-quiet'), 'data');
      expect((await command('restore', restoredQuiet, atRest)).code).toBe(0);
      const restoredLoad = join(folder('restored-load'), 'data');
      expect((await command('restore', restoredLoad, underLoad)).code).toBe(0);

      const sourceDb = await openDatabase({ dataDir: join(source, 'db') });
      const quietDb = await openDatabase({ dataDir: join(restoredQuiet, 'db') });
      const loadDb = await openDatabase({ dataDir: join(restoredLoad, 'db') });
      try {
        // At rest: every row of every table, and every file, as in the source.
        const sourceRows = await tableRows(sourceDb);
        expect(await tableRows(quietDb)).toEqual(sourceRows);
        const sourceFiles = await folderFiles(join(source, 'files'));
        expect(sourceFiles.size).toBeGreaterThan(4);
        expect(await folderFiles(join(restoredQuiet, 'files'))).toEqual(sourceFiles);
        expect(readFileSync(join(restoredQuiet, 'jwt-secret'))).toEqual(
          readFileSync(join(source, 'jwt-secret')),
        );
        // The queue's jobs came along (same ids, same states).
        const jobs = 'SELECT id, name, state FROM pgboss.job ORDER BY id';
        expect(await quietDb.query(jobs)).toEqual(await sourceDb.query(jobs));

        // Under load: whole imports only, and every one acknowledged before the backup.
        const ids = (await loadDb.query<{ id: number }>('SELECT id FROM workouts ORDER BY id')).map(
          (row) => row.id,
        );
        expect(ids).toEqual(expect.arrayContaining(before));
        const stable = `SELECT w.id, w.user_id, w.name, w.start_time, w.summary, w.file_key,
                               w.file_bytes, w.file_sha256, s.blob_key, s.bytes, s.length
                          FROM workouts w JOIN workout_streams s ON s.workout_id = w.id
                         ORDER BY w.id`;
        const restoredRides = await loadDb.query(stable);
        expect(restoredRides).toHaveLength(ids.length);
        const sourceRides = new Map(
          (await sourceDb.query<{ id: number }>(stable)).map((row) => [row.id, row]),
        );
        // Each as in the source, or one the load deleted after the snapshot.
        for (const ride of restoredRides)
          if (sourceRides.has(ride.id as number))
            expect(ride).toEqual(sourceRides.get(ride.id as number));
          else expect(deletedRides).toContain(ride.id);
        for (const table of ['users', 'devices', 'routebooks', 'athlete_thresholds'])
          expect(
            (await tableRows(loadDb))
              .get(table)!
              .filter((row) => !sourceRows.get(table)!.includes(row)),
            `${table}: ${JSON.stringify(sourceRows.get(table))}`,
          ).toEqual([]);
        const named = await loadDb.query<{ key: string }>(
          `SELECT file_key AS key FROM workouts UNION SELECT blob_key FROM workout_streams
           UNION SELECT file_key FROM routebooks
           UNION SELECT file_key FROM imports WHERE status IN ('uploading', 'queued')`,
        );
        const restoredFiles = await folderFiles(join(restoredLoad, 'files'));
        for (const { key } of named) {
          expect(restoredFiles.has(key), key).toBe(true);
          if (sourceFiles.has(key)) expect(restoredFiles.get(key)).toEqual(sourceFiles.get(key));
        }
        // Files of rides deleted since come whole too (the size their rows recorded).
        for (const ride of await loadDb.query<{ file_key: string; file_bytes: number }>(
          'SELECT file_key, file_bytes FROM workouts',
        ))
          expect(restoredFiles.get(ride.file_key)?.length).toBe(ride.file_bytes);
        const doneWithoutRide = await loadDb.query(
          `SELECT i.id FROM imports i LEFT JOIN workouts w ON w.id = i.workout_id
            WHERE i.status = 'done' AND i.workout_id IS NOT NULL AND w.id IS NULL`,
        );
        expect(doneWithoutRide).toEqual([]);
      } finally {
        await Promise.all([sourceDb.close(), quietDb.close(), loadDb.close()]);
      }

      // The product starts on the backup under load, and the source's sessions still work.
      ({ proc, base } = await startProduct(restoredLoad));
      const list = await fetch(`${base}/api/v2/workouts/?page_size=100`, {
        headers: json(riders[0]!),
      });
      expect(list.status).toBe(200);
      const rides = ((await list.json()) as { data: { results: { id: number }[] } }).data.results;
      expect(rides.map((ride) => ride.id)).toContain(first);
      const detail = await fetch(`${base}/api/v2/workouts/${first}/`, {
        headers: json(riders[0]!),
      });
      expect(detail.status).toBe(200);
      const streams = await fetch(`${base}/api/v2/workouts/${first}/streams/`, {
        headers: json(riders[0]!),
      });
      expect(streams.status).toBe(200);
      const restoredAthlete = await fetch(`${base}/api/v2/athlete/${me}/`, {
        headers: json(riders[0]!),
      });
      expect(JSON.stringify(await restoredAthlete.json())).toContain('"ftp":255');
      const devices = await fetch(`${base}/api/v2/devices/`, { headers: json(riders[0]!) });
      expect(JSON.stringify(await devices.json())).toContain('NAVP-0777');
      expect((await fetch(`${base}/api/v2/share/workouts/${shareId}/`)).status).toBe(200);
      const file = await fetch(`${base}/api/v2/workouts/${first}/fit/`, {
        headers: json(riders[0]!),
      });
      expect(file.status).toBe(200);
      expect(await proc.stop(), proc.output()).toBe(0);
      // A folder that is not a finished backup is refused.
      const unfinished = folder('unfinished');
      writeFileSync(join(unfinished, 'database.tar'), 'x');
      const noManifest = await command('restore', join(folder('empty'), 'data'), unfinished);
      expect(noManifest.code).toBe(1);
      expect(noManifest.output).toContain('no finished backup');
    } finally {
      await proc.stop();
    }
  });
});
