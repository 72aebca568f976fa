import type { Db } from 'mongodb';
import { createFfmpegProcessor } from '../../adapters/media/ffmpeg-processor';
import { createUrlMediaFetcher } from '../../adapters/media/url-fetcher';
import { createMongoMediaJobs } from '../../adapters/mongo/media-jobs';
import { createMongoMediaUsage } from '../../adapters/mongo/media-usage';
import type { MediaStore } from '../../core/ports/media';
import type { HeraldConfig } from './config';

/**
 * What both daemons need for media-processing jobs: the job and minute-ledger repositories, the
 * ffmpeg processor, and the URL fetcher (the uploads' SSRF rules) taking any media type.
 */
export async function buildMediaJobs(
  config: HeraldConfig, db: Db, store: MediaStore & { pathOf(id: string): string }, log?: (message: string, fields?: Record<string, unknown>) => void,
) {
  const urls = createUrlMediaFetcher(store, { allow: config.media.fetchAllow, maxBytes: config.media.maxBytes, timeoutMs: config.media.fetchTimeoutMs });
  return {
    mediaJobs: await createMongoMediaJobs(db),
    mediaUsage: await createMongoMediaUsage(db),
    processor: createFfmpegProcessor({ store, pathOf: store.pathOf, scratchRoot: config.mediaJobs.scratchDir, sandbox: config.mediaJobs.sandbox,
      // Said once, when the first probe or run finds the strongest sandbox that works here.
      onSandbox: (s) => log?.('media sandbox', { mode: s.mode, ...(s.ids ? { user: s.user } : {}) }),
    }),
    /** Downloads a job's input URL into the store (any content type: ffmpeg reads what it is). */
    fetchInput: (url: string, field: string) => urls.fetchInto(url, () => true, field),
  };
}
