/**
 * Value transformers (k8s.io/apiserver/pkg/storage/value/encrypt/aes): what a stored value looks
 * like under each provider, with kube's prefixes:
 *
 * - aescbc: `k8s:enc:aescbc:v1:<key>:` + IV (16 bytes) + AES-CBC ciphertext (PKCS#7 padding);
 * - aesgcm: `k8s:enc:aesgcm:v1:<key>:` + nonce (12 bytes) + AES-GCM ciphertext + tag (16 bytes),
 *   with the object's storage key as additional authenticated data, so a value copied to another
 *   key does not decrypt;
 * - identity: the value itself.
 */
import { createCipheriv, createDecipheriv, randomBytes, type CipherGCMTypes } from 'node:crypto';

export interface ValueTransformer {
  /** `k8s:enc:aescbc:v1:key1:`; '' for identity. */
  readonly prefix: string;
  toStorage(plain: Buffer, authenticatedData: string): Buffer;
  /** The plaintext of a value carrying this transformer's prefix. Throws when it does not decrypt. */
  fromStorage(stored: Buffer, authenticatedData: string): Buffer;
}

export const IDENTITY: ValueTransformer = {
  prefix: '',
  toStorage: (plain) => plain,
  fromStorage: (stored) => stored,
};

const algorithm = (mode: 'cbc', key: Buffer) => `aes-${key.length * 8}-${mode}`;
const gcm = (key: Buffer) => `aes-${key.length * 8}-gcm` as CipherGCMTypes;

export function newAESCBC(name: string, key: Buffer): ValueTransformer {
  const prefix = `k8s:enc:aescbc:v1:${name}:`;
  return {
    prefix,
    toStorage(plain) {
      const iv = randomBytes(16);
      const cipher = createCipheriv(algorithm('cbc', key), key, iv);
      return Buffer.concat([Buffer.from(prefix), iv, cipher.update(plain), cipher.final()]);
    },
    fromStorage(stored) {
      const body = stored.subarray(prefix.length);
      if (body.length < 16 || (body.length - 16) % 16 !== 0) throw new Error('the stored data is not a multiple of the block size');
      const decipher = createDecipheriv(algorithm('cbc', key), key, body.subarray(0, 16));
      return Buffer.concat([decipher.update(body.subarray(16)), decipher.final()]);
    },
  };
}

export function newAESGCM(name: string, key: Buffer): ValueTransformer {
  const prefix = `k8s:enc:aesgcm:v1:${name}:`;
  return {
    prefix,
    toStorage(plain, aad) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv(gcm(key), key, nonce);
      cipher.setAAD(Buffer.from(aad));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([Buffer.from(prefix), nonce, body, cipher.getAuthTag()]);
    },
    fromStorage(stored, aad) {
      const body = stored.subarray(prefix.length);
      if (body.length < 12 + 16) throw new Error('the stored data was shorter than the required size');
      const decipher = createDecipheriv(gcm(key), key, body.subarray(0, 12));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(body.subarray(body.length - 16));
      return Buffer.concat([decipher.update(body.subarray(12, body.length - 16)), decipher.final()]);
    },
  };
}
