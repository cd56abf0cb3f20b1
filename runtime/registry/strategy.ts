/**
 * Strategies: the per-kind behaviour the generic store calls at named moments, as
 * rest.RESTCreateStrategy / RESTUpdateStrategy / RESTDeleteStrategy. The generic store owns the
 * order (prepare → default → validate → persist); a strategy only answers for its kind.
 *
 * newCustomResourceStrategy is the strategy of generated kinds, modelled on kube's
 * apiextensions-apiserver customresource strategy.
 */
import type { KubeObject, StatusCause } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import {
  toStatusCauses,
  validateObjectMeta,
  type FieldError,
  type NameValidation,
  type SchemaValidator,
} from '../validation/index.js';
import { jsonEqual } from './equality.js';
import { validateMetadataUpdate } from './objectmeta.js';

export type { SchemaValidator };

export interface RESTCreateStrategy {
  readonly namespaceScoped: boolean;
  /** Clears fields a create may not set (status with a status subresource) and applies defaults. Mutates obj. */
  prepareForCreate(obj: KubeObject): void;
  /** Never mutates; returns every problem as a StatusCause (422 when any). */
  validate(obj: KubeObject): StatusCause[];
  /** Normalises a valid object just before it is stored (kube's Canonicalize). */
  canonicalize?(obj: KubeObject): void;
  /**
   * kube's WarningsOnCreate: warnings for a valid object (a value kube takes but would rather not,
   * such as an IP address with leading zeros), sent as `Warning: 299 - "…"` headers. Called once
   * validation passed, before canonicalize; never mutates.
   */
  warningsOnCreate?(obj: KubeObject): string[];
  /**
   * kube's BeginCreate: work that needs I/O before the object is prepared and stored (a Service's
   * cluster IP). Returns the function the store calls once the create finished, with whether the
   * object was stored (kube's transaction Commit or Revert); the store waits for it.
   */
  beginCreate?(obj: KubeObject, opts: { dryRun: boolean }): Promise<(stored: boolean) => void | Promise<void>>;
}

export interface RESTUpdateStrategy {
  readonly namespaceScoped: boolean;
  /** Kube's AllowCreateOnUpdate: PUT to a missing object creates it. False for every kgen kind. */
  readonly allowCreateOnUpdate: boolean;
  /** Kube's AllowUnconditionalUpdate: a PUT without resourceVersion overwrites. */
  readonly allowUnconditionalUpdate: boolean;
  /** Restores what this update may not change and manages generation. Mutates obj only. */
  prepareForUpdate(obj: KubeObject, old: KubeObject): void;
  validateUpdate(obj: KubeObject, old: KubeObject): StatusCause[];
  canonicalize?(obj: KubeObject): void;
  /** kube's WarningsOnUpdate: as warningsOnCreate, for a valid update of old into obj. */
  warningsOnUpdate?(obj: KubeObject, old: KubeObject): string[];
  /**
   * kube's AfterUpdate: runs once obj replaced old in storage (not on dry runs). A Service whose
   * update dropped its cluster IP or node ports gives them back here.
   */
  afterUpdate?(obj: KubeObject, old: KubeObject): Promise<void>;
}

export interface RESTDeleteStrategy {
  /** Throws a StatusError when obj may not be deleted (e.g. a system namespace). */
  checkDelete?(obj: KubeObject): void;
  /**
   * kube's AfterDelete: runs once obj (its last state) is gone from storage, not when it is only
   * marked for deletion; not on dry runs. A Service gives its cluster IP back here.
   */
  afterDelete?(obj: KubeObject): Promise<void>;
}

export type RESTStrategy = RESTCreateStrategy & RESTUpdateStrategy & RESTDeleteStrategy;

export interface StrategyConfig {
  definition: ResourceDefinition;
  validator: SchemaValidator;
  /** How metadata.name is checked: DNS-1123 subdomain unless set (namespaces use DNS1123Label). */
  nameValidation?: NameValidation;
  /**
   * Whether the strategy manages metadata.generation (default true). kube's rest.BeforeCreate and
   * BeforeUpdate set none (an update only carries the old one): each kind's strategy decides.
   * Custom resources (and so every kind compiled by kgen) and a few built-in kinds (Deployment,
   * CustomResourceDefinition, the webhook configurations) start at 1 and count changes to
   * everything but metadata (and status); most built-in kinds (ConfigMap, Secret, Namespace,
   * Service, ServiceAccount, Endpoints, Event, PersistentVolumeClaim, Lease, APIService, the RBAC
   * kinds) leave it alone: a create keeps what the client sent and an update the stored one.
   */
  tracksGeneration?: boolean;
}

/** Everything but metadata (and status, when it has its own endpoint): what generation tracks. */
function specContent(obj: KubeObject, statusEnabled: boolean): Record<string, unknown> {
  const { metadata: _m, ...rest } = obj;
  if (statusEnabled) delete rest.status;
  return rest;
}

/**
 * Object meta and schema problems, with duplicate (field, message) pairs dropped. `old` (on
 * update) lets CEL transition rules compare with the stored object.
 */
function validateObject(obj: KubeObject, config: StrategyConfig, namespaced: boolean, old?: KubeObject): FieldError[] {
  const errors = [
    ...validateObjectMeta(obj.metadata ?? {}, { namespaced, nameValidation: config.nameValidation }),
    ...config.validator.validate(obj, old),
  ];
  const seen = new Set<string>();
  return errors.filter((e) => {
    const id = `${e.field}\u0000${e.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * True when the schema found a field of the wrong type (or a null where none is allowed). A kind's
 * own strategy code (CRD, RBAC, namespace, webhook configuration checks, modelled on kube's Go
 * strategies) is written against the kind's typed shape: in kube the decoder has already refused a
 * wrongly typed body before any of it runs. Here the schema is that guard: with such errors the
 * kind's own preparation and validation are skipped and the schema's causes alone answer (422), as
 * CEL rules are skipped (validation/cel.ts). Missing fields are not type errors: kind code treats
 * them as Go's zero values.
 */
export function hasWrongTypes(causes: readonly StatusCause[]): boolean {
  return causes.some((c) => c.reason === 'FieldValueTypeInvalid');
}

export function newCustomResourceStrategy(config: StrategyConfig): RESTStrategy {
  const { definition, validator } = config;
  const namespaceScoped = definition.scope === 'Namespaced';
  const statusEnabled = definition.subresources.status;
  const tracksGeneration = config.tracksGeneration !== false;
  return {
    namespaceScoped,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    prepareForCreate(obj) {
      if (statusEnabled) delete obj.status;
      if (tracksGeneration) obj.metadata.generation = 1;
      // Go's int64 `omitempty`: a typed kind decodes and stores a sent 0 as absent.
      else if (obj.metadata.generation === 0) delete obj.metadata.generation;
      validator.applyDefaults(obj);
    },
    prepareForUpdate(obj, old) {
      if (statusEnabled) {
        if (old.status === undefined) delete obj.status;
        else obj.status = structuredClone(old.status);
      }
      validator.applyDefaults(obj);
      // The store already carried the old generation over (BeforeUpdate); nothing counts here.
      if (!tracksGeneration) return;
      const oldGeneration = old.metadata.generation ?? 0;
      const changed = !jsonEqual(specContent(obj, statusEnabled), specContent(old, statusEnabled));
      obj.metadata.generation = changed ? oldGeneration + 1 : oldGeneration;
    },
    validate(obj) {
      return toStatusCauses(validateObject(obj, config, namespaceScoped));
    },
    validateUpdate(obj, old) {
      return toStatusCauses([...validateMetadataUpdate(obj.metadata, old.metadata), ...validateObject(obj, config, namespaceScoped, old)]);
    },
  };
}

/**
 * What a write through `…/status` resets to the old object, as paths (`['spec']`,
 * `['metadata', 'labels']`): kube's status strategies of built-in kinds, whose PrepareForUpdate
 * copies only these from the old object (Namespace, Service and PersistentVolumeClaim `spec`;
 * Deployment `spec` and `metadata.labels`), so the write's other metadata changes (annotations,
 * finalizers, owner references) are kept, and their GetResetFields name the same paths.
 */
export type StatusResets = ReadonlyArray<readonly string[]>;

/**
 * The `…/status` endpoint's strategy. Without `resets`, only status changes; everything else,
 * metadata included, is the old object's (kube's customresource statusStrategy). With them, the
 * paths named are the old object's and the rest is the write's (see StatusResets); the generic
 * update rules (immutable metadata, generation) hold either way.
 */
export function newStatusStrategy(base: RESTStrategy, config: StrategyConfig, resets?: StatusResets): RESTStrategy {
  return {
    ...base,
    prepareForUpdate(obj, old) {
      if (resets) resetPaths(obj, old, resets);
      else keepOnlyStatus(obj, old);
      config.validator.applyDefaults(obj);
    },
    validateUpdate(obj, old) {
      return toStatusCauses([...validateMetadataUpdate(obj.metadata, old.metadata), ...validateObject(obj, config, base.namespaceScoped, old)]);
    },
  };
}

/** The old object with the write's status (and its resourceVersion and recomputed managedFields). */
function keepOnlyStatus(obj: KubeObject, old: KubeObject): void {
  const hasStatus = Object.prototype.hasOwnProperty.call(obj, 'status');
  const status = obj.status;
  const resourceVersion = obj.metadata.resourceVersion;
  // managedFields were recomputed for this status write by the field manager; keep them.
  const managedFields = obj.metadata.managedFields;
  for (const key of Object.keys(obj)) delete obj[key];
  Object.assign(obj, structuredClone(old));
  if (resourceVersion !== undefined) obj.metadata.resourceVersion = resourceVersion;
  if (managedFields) obj.metadata.managedFields = managedFields;
  else delete obj.metadata.managedFields;
  if (hasStatus) obj.status = status;
  else delete obj.status;
}

/** The write with each reset path set to the old object's value there (removed where old has none). */
function resetPaths(obj: KubeObject, old: KubeObject, resets: StatusResets): void {
  for (const path of resets) {
    const last = path[path.length - 1]!;
    const parents = path.slice(0, -1);
    let from: unknown = old;
    for (const key of parents) from = isRecord(from) ? from[key] : undefined;
    const value = isRecord(from) ? from[last] : undefined;
    let into: Record<string, unknown> | undefined = obj;
    for (const key of parents) {
      if (!isRecord(into[key])) {
        // Nothing to remove below a parent the write does not have.
        if (value === undefined) into = undefined;
        else into[key] = {};
      }
      if (into === undefined) break;
      into = into[key] as Record<string, unknown>;
    }
    if (into === undefined) continue;
    if (value === undefined) delete into[last];
    else into[last] = structuredClone(value);
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
