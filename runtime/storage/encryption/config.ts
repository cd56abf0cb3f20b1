/**
 * kube-apiserver's --encryption-provider-config: an apiserver.config.k8s.io/v1 (or v1beta1)
 * EncryptionConfiguration naming, per resource, the providers that encrypt it at rest:
 *
 *   resources:
 *     - resources: [secrets]                # `secrets`, `widgets.widgets.example.com`, `*.`, `*.*`
 *       providers:
 *         - aesgcm: { keys: [{ name: key1, secret: <base64 of 16, 24 or 32 bytes> }] }
 *         - aescbc: { keys: [{ name: key2, secret: <base64 of 16, 24 or 32 bytes> }] }
 *         - identity: {}
 *
 * The first provider (its first key) encrypts every write; reads try each provider whose prefix
 * the stored value has (identity reads values that carry none). The first rule naming a resource
 * applies to it, as in kube. Anything kube would refuse to start with is an error here too.
 */
import { readFileSync } from 'node:fs';
import { yaml } from '../../api/yaml.js';
import { newAESCBC, newAESGCM, IDENTITY, type ValueTransformer } from './transformers.js';

export interface ResourceEncryption {
  /** The providers in order: [0] encrypts writes; all are tried on reads. */
  providers: ValueTransformer[];
}

export interface EncryptionConfig {
  /** The encryption of group/resource (core group ''), if configured. */
  forResource(group: string, resource: string): ResourceEncryption | undefined;
}

interface KeyConfig {
  name?: unknown;
  secret?: unknown;
}

function fail(path: string, message: string): never {
  throw new Error(`--encryption-provider-config ${path}: ${message}`);
}

function keysOf(provider: string, value: unknown, path: string): { name: string; secret: Buffer }[] {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) fail(`${path}.${provider}.keys`, 'Required value: at least one key must be provided');
  return keys.map((k: KeyConfig, i) => {
    const where = `${path}.${provider}.keys[${i}]`;
    if (typeof k?.name !== 'string' || k.name === '') fail(`${where}.name`, 'Required value: key name is required');
    if (k.name.includes(':')) fail(`${where}.name`, `Invalid value: "${k.name}": key name must not contain ":"`);
    if (typeof k.secret !== 'string' || k.secret === '') fail(`${where}.secret`, 'Required value: secret is required');
    const secret = Buffer.from(k.secret, 'base64');
    if (![16, 24, 32].includes(secret.length)) fail(`${where}.secret`, `Invalid value: "REDACTED": secret is not of the expected length, got ${secret.length}, expected one of [16 24 32]`);
    return { name: k.name, secret };
  });
}

function provider(entry: unknown, path: string): ValueTransformer[] {
  const kinds = Object.keys((entry ?? {}) as object);
  if (kinds.length !== 1) fail(path, 'Invalid value: exactly one provider must be configured per entry');
  const kind = kinds[0]!;
  const value = (entry as Record<string, unknown>)[kind];
  switch (kind) {
    case 'identity':
      return [IDENTITY];
    case 'aescbc':
      return keysOf(kind, value, path).map((k) => newAESCBC(k.name, k.secret));
    case 'aesgcm':
      return keysOf(kind, value, path).map((k) => newAESGCM(k.name, k.secret));
    default:
      return fail(path, `Unsupported value: "${kind}": kgen supports the "aescbc", "aesgcm" and "identity" providers`);
  }
}

/** Parses an EncryptionConfiguration document (YAML or JSON). */
export function parseEncryptionConfig(text: string): EncryptionConfig {
  const doc = yaml().parse(text) as { kind?: unknown; apiVersion?: unknown; resources?: unknown } | null;
  if (doc?.kind !== 'EncryptionConfiguration') fail('kind', `Invalid value: ${JSON.stringify(doc?.kind)}: must be EncryptionConfiguration`);
  if (doc.apiVersion !== 'apiserver.config.k8s.io/v1' && doc.apiVersion !== 'apiserver.config.k8s.io/v1beta1') {
    fail('apiVersion', `Invalid value: ${JSON.stringify(doc.apiVersion)}: must be apiserver.config.k8s.io/v1`);
  }
  if (!Array.isArray(doc.resources) || doc.resources.length === 0) fail('resources', 'Required value: at least one resource is required');
  const rules = doc.resources.map((rule: { resources?: unknown; providers?: unknown }, i) => {
    const path = `resources[${i}]`;
    if (!Array.isArray(rule?.resources) || rule.resources.length === 0) fail(`${path}.resources`, 'Required value');
    if (!Array.isArray(rule.providers) || rule.providers.length === 0) fail(`${path}.providers`, 'Required value');
    const providers = rule.providers.flatMap((p: unknown, j: number) => provider(p, `${path}.providers[${j}]`));
    return { resources: rule.resources.map(String), providers };
  });
  return {
    forResource(group, resource) {
      const names = group === '' ? [resource, `${resource}.`, '*.'] : [`${resource}.${group}`, `*.${group}`];
      const rule = rules.find((r) => r.resources.some((n) => names.includes(n) || n === '*.*'));
      return rule && { providers: rule.providers };
    },
  };
}

export function loadEncryptionConfig(path: string): EncryptionConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read --encryption-provider-config ${path}: ${(err as Error).message}`);
  }
  return parseEncryptionConfig(text);
}
