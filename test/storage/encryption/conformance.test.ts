// The storage conformance suite over the encryption wrapper: every resource sealed (aesgcm), so
// every behaviour of the backend holds through sealing and opening.
import { MemoryStorage } from '../../../runtime/storage/memory.js';
import { encryptingStorage, parseEncryptionConfig } from '../../../runtime/storage/encryption/index.js';
import { describeStorageConformance } from '../conformance.js';

const CONFIG = `
apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: ["*.*", "*."]
    providers:
      - aesgcm: { keys: [{ name: key1, secret: ${Buffer.alloc(32, 7).toString('base64')} }] }
`;

describeStorageConformance('memory, encrypted at rest', async () => {
  const backend = new MemoryStorage();
  return { storage: encryptingStorage(backend, parseEncryptionConfig(CONFIG)), cleanup: () => backend.close() };
});
