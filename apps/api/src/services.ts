import type { FastifyBaseLogger } from 'fastify';
import type { Sessions } from './auth/sessions.ts';
import type { BlobStore } from './blobStore.ts';
import type { ApiConfig } from './config.ts';
import type { Database } from './db/db.ts';
import type { ImportJobs } from './workouts/importJobs.ts';
import type { AnalysisPool } from './workouts/pool.ts';

/** What route modules share. */
export interface Services {
  readonly db: Database;
  readonly blobs: BlobStore;
  readonly sessions: Sessions;
  readonly pool: AnalysisPool;
  /** The import queue: uploads are queued here and run by any process. */
  readonly imports: ImportJobs;
  readonly config: ApiConfig;
  readonly log: FastifyBaseLogger;
  readonly now: () => number;
}
