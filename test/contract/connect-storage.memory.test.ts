import { createMemoryConnectStorage } from '../../adapters/memory/connect-storage';
import { connectStorageContract } from './storage/connect-storage.contract';

connectStorageContract('memory', async () => ({ repository: createMemoryConnectStorage(), cleanup: async () => {} }));
