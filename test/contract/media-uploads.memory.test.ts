import { createMemoryMediaUploads } from '../../adapters/memory/media-uploads';
import { mediaUploadsContract } from './storage/media-uploads.contract';

mediaUploadsContract('memory', async () => ({ repository: createMemoryMediaUploads(), cleanup: async () => {} }));
