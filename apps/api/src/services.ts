import type { FastifyBaseLogger } from 'fastify';
import type { Sessions } from './auth/sessions.ts';
import type { BlobStore } from './platform/blobStore.ts';
import type { ApiConfig } from './platform/config.ts';
import type { Database } from './platform/db/db.ts';
import type { StorageHealth } from './platform/storageHealth.ts';
import type { ArchiveImports } from './imports/archives.ts';
import type { ImportJobs } from './imports/importJobs.ts';
import type { AnalysisPool } from './imports/pool.ts';

/** What route modules share. */
export interface Services {
  readonly db: Database;
  readonly blobs: BlobStore;
  readonly sessions: Sessions;
  readonly pool: AnalysisPool;
  /** The import queue: uploads are queued here and run by any process. */
  readonly imports: ImportJobs;
  /** Export archives imported in one go (each activity an import on the queue). */
  readonly archives: ArchiveImports;
  /** Whether the database and the file store can write (`/api/ready`). */
  readonly storage: StorageHealth;
  readonly config: ApiConfig;
  /**
   * The rider's limit of corrections that analyse a ride again (`RequestLimits` in
   * http/requestLimits.ts): resolves when one more is allowed, else throws the API's 429.
   */
  readonly limits: { readonly correction: (userId: number) => Promise<void> };
  readonly log: FastifyBaseLogger;
  readonly now: () => number;
}
