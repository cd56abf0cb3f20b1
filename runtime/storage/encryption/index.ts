/** Encryption at rest (kube's --encryption-provider-config): configuration, transformers, the storage wrapper. */
export { loadEncryptionConfig, parseEncryptionConfig, type EncryptionConfig, type ResourceEncryption } from './config.js';
export { IDENTITY, newAESCBC, newAESGCM, type ValueTransformer } from './transformers.js';
export { encryptingStorage, ENVELOPE_FIELD } from './storage.js';
