import path from 'node:path';
import type { Db } from 'mongodb';
import { createStagedBytes } from '../../adapters/media/staged-bytes';
import { createUploadUrlSigner } from '../../adapters/media/signed-urls';
import { createMongoMediaUploads } from '../../adapters/mongo/media-uploads';
import { randomIds, systemClock } from '../../adapters/crypto/node-crypto';
import type { MediaUploadDeps } from '../../core/usecases/media-uploads';
import type { Storage } from '../../core/ports/storage';
import type { HeraldConfig } from './config';
import type { buildMedia } from './compose';

/** Staged media uploads: records in MongoDB, bytes in the media store's staging directory (renamed into the store on completion). */
export async function buildMediaUploads(config: HeraldConfig, db: Db, storage: Storage, media: ReturnType<typeof buildMedia>, secretKey: string): Promise<MediaUploadDeps> {
  return {
    mediaUploads: await createMongoMediaUploads(db),
    stagedBytes: createStagedBytes({ dir: path.join(media.store.stagingDir, 'uploads'), store: media.store }),
    uploadUrls: createUploadUrlSigner({ key: secretKey, publicBaseUrl: config.media.publicBaseUrl, namespace: config.namespace, clock: systemClock }),
    mediaUrls: media.signer,
    mediaStore: media.store,
    ids: randomIds,
    clock: systemClock,
    storage,
    settings: { ttlMs: config.mediaUploads.ttlMs, resumableAboveBytes: config.mediaUploads.resumableAboveBytes, maxBytes: config.media.maxBytes },
  };
}
