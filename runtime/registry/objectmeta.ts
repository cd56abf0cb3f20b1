/**
 * System-managed ObjectMeta fields, as k8s.io/apiserver/pkg/registry/rest (BeforeCreate,
 * BeforeUpdate, FillObjectMetaSystemFields) and k8s.io/apiserver/pkg/storage/names manage them.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { KubeObject, ObjectMeta } from '../api/meta.js';
import { canonicalTime } from '../api/time.js';
import type { FieldError } from '../validation/index.js';
import { validateNoNewFinalizers } from './deletion.js';

/** kube's names.SimpleNameGenerator alphabet: no vowels, no confusable characters. */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_GENERATED_NAME_LENGTH = 63;
const RANDOM_LENGTH = 5;

/** `base` (truncated so the result fits 63 characters) followed by 5 random characters. */
export function generateName(base: string): string {
  const max = MAX_GENERATED_NAME_LENGTH - RANDOM_LENGTH;
  let suffix = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) suffix += ALPHANUMS[randomInt(ALPHANUMS.length)];
  return `${base.length > max ? base.slice(0, max) : base}${suffix}`;
}

let cachedSecond = Number.NaN;
let cachedText = '';

/**
 * RFC 3339 with second precision, as metav1.Time serialises: `2026-01-02T03:04:05Z`. The text of
 * the current second is kept: every write of a second stamps the same one.
 */
export function nowRFC3339(now?: Date): string {
  if (now) return formatRFC3339(now);
  const second = Math.floor(Date.now() / 1000);
  if (second !== cachedSecond) {
    cachedText = formatRFC3339(new Date(second * 1000));
    cachedSecond = second;
  }
  return cachedText;
}

function formatRFC3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** FillObjectMetaSystemFields plus the create-time resets of BeforeCreate. */
export function fillCreateMetadata(meta: ObjectMeta): void {
  meta.uid = randomUUID();
  meta.creationTimestamp = nowRFC3339();
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  if (meta.generateName && !meta.name) meta.name = generateName(meta.generateName);
}

/**
 * BeforeUpdate's metadata rules: generation and creationTimestamp are the server's, uid defaults
 * to the old one. An update can neither remove nor change the old object's deletionTimestamp, nor
 * remove its deletionGracePeriodSeconds: those are put back. Setting either where the old object
 * has none, or changing the grace period, is left for validateMetadataUpdate to refuse (422), as
 * kube does; it is not dropped silently.
 */
export function carryUpdateMetadata(meta: ObjectMeta, old: ObjectMeta): void {
  if (old.generation !== undefined) meta.generation = old.generation;
  else delete meta.generation;
  if (!meta.uid && old.uid !== undefined) meta.uid = old.uid;
  if (old.creationTimestamp) meta.creationTimestamp = old.creationTimestamp;
  if (old.deletionTimestamp) meta.deletionTimestamp = old.deletionTimestamp;
  else if (meta.deletionTimestamp === null) delete meta.deletionTimestamp;
  if (meta.deletionGracePeriodSeconds === undefined || meta.deletionGracePeriodSeconds === null) {
    if (old.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
    else delete meta.deletionGracePeriodSeconds;
  }
}

/**
 * ValidateObjectMetaUpdate's immutable fields: `metadata.uid: Invalid value: "x": field is immutable`.
 * Runs after carryUpdateMetadata, so a deletion field that differs here was set or changed by the write.
 */
export function validateMetadataUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  // In kube's order: finalizers (of an object being deleted) first, then the immutable fields.
  const errors: FieldError[] = [...validateNoNewFinalizers(meta, old)];
  const immutable = (field: keyof ObjectMeta) => {
    const value = meta[field] ?? '';
    if (value !== (old[field] ?? '')) {
      errors.push({ type: 'FieldValueInvalid', field: `metadata.${field}`, message: `Invalid value: ${JSON.stringify(value)}: field is immutable` });
    }
  };
  immutable('name');
  immutable('namespace');
  immutable('uid');
  const deletion = meta.deletionTimestamp;
  if (deletion !== undefined && deletion !== old.deletionTimestamp) {
    // Printed as Go marshals the *metav1.Time: UTC, whole seconds.
    const shown = typeof deletion === 'string' ? (canonicalTime(deletion) ?? deletion) : deletion;
    errors.push({ type: 'FieldValueInvalid', field: 'metadata.deletionTimestamp', message: `Invalid value: ${JSON.stringify(shown)}: field is immutable` });
  }
  const grace = meta.deletionGracePeriodSeconds;
  if (grace !== undefined && grace !== old.deletionGracePeriodSeconds) {
    errors.push({ type: 'FieldValueInvalid', field: 'metadata.deletionGracePeriodSeconds', message: `Invalid value: ${JSON.stringify(grace)}: field is immutable` });
  }
  return errors;
}

export function metadataOf(obj: KubeObject): ObjectMeta {
  if (typeof obj.metadata !== 'object' || obj.metadata === null || Array.isArray(obj.metadata)) obj.metadata = {};
  return obj.metadata;
}
