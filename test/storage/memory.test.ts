import { MemoryStorage } from '../../runtime/storage/memory.js';
import { describeStorageConformance } from './conformance.js';

describeStorageConformance('memory', async () => {
  const storage = new MemoryStorage();
  return { storage, cleanup: () => storage.close() };
});
