import { createMemoryStorage } from '../../adapters/memory/storage';
import { storageContract } from './storage.contract';

storageContract('memory', async () => ({ storage: createMemoryStorage(), cleanup: async () => {} }));
