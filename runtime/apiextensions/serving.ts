/**
 * What the extensions server serves now: for each CRD whose names are accepted (or that is
 * established), one RequestScope per served version, built through the installer exactly as a
 * compiled kind's (kube's crdHandler serving info), and the discovery/OpenAPI entries of the
 * established ones. Versions of a CRD share the resource's storage prefix
 * `/registry/<group>/<plural>` and watch cache; a multi-version CRD converts with its strategy:
 * None (apiVersion only, conversion.ts) or Webhook (the CRD's conversion webhook, one converter
 * shared by its versions: webhook-storage.ts).
 */
import type { VersionConverter, VersionDefaulter } from '../api/auth.js';
import type { KubeObject } from '../api/meta.js';
import { apiVersionOf } from '../api/resource.js';
import type { ServiceResolver } from '../admission/webhook/client.js';
import type { RequestScope } from '../endpoints/handler.js';
import type { APIInstaller } from '../server/installer.js';
import type { Storage } from '../storage/interface.js';
import { isConditionTrue } from './conditions.js';
import { convertingStorage } from './conversion.js';
import { servedVersion, servedVersions } from './definition.js';
import { Lazy, lazyValidator } from '../server/schemas.js';
import type { SchemaValidator } from '../validation/index.js';
import type { VersionEntry } from './documents.js';
import { storageVersionOf, type CustomResourceDefinition } from './types.js';
import { WebhookConverter, type WebhookConversion } from './webhook-converter.js';
import { webhookConvertingStorage } from './webhook-storage.js';
import { gvkString } from './conversion-review.js';

export interface CRDServing {
  /** The CRD as last seen (conditions change without a rebuild: Terminating, Established). */
  crd: CustomResourceDefinition;
  uid: string;
  /** What the scopes were built from; a change rebuilds them. */
  key: string;
  /** Served version → scope and its documents' entry. */
  versions: Map<string, { scope: RequestScope; entry: VersionEntry }>;
}

/** The parts of a CRD the served resource depends on. */
function servingKey(crd: CustomResourceDefinition): string {
  return JSON.stringify([crd.metadata.uid, crd.spec, crd.status?.acceptedNames ?? null]);
}

export class ServingRegistry {
  private readonly byName = new Map<string, CRDServing>();

  constructor(
    private readonly installer: APIInstaller,
    private readonly log: (line: string) => void,
    private readonly resolveService?: ServiceResolver,
  ) {}

  /** The serving info of `<resource>.<group>`. */
  get(name: string): CRDServing | undefined {
    return this.byName.get(name);
  }

  all(): CRDServing[] {
    return [...this.byName.values()];
  }

  /** Builds (or rebuilds, after a spec change) the CRD's scopes; returns true when anything changed. */
  async ensure(crd: CustomResourceDefinition): Promise<boolean> {
    const name = crd.metadata.name!;
    const current = this.byName.get(name);
    const key = servingKey(crd);
    if (current && current.key === key) {
      const wasEstablished = isConditionTrue(current.crd, 'Established');
      current.crd = crd;
      return wasEstablished !== isConditionTrue(crd, 'Established');
    }
    // A CRD deleted and created again under the same name starts from an empty cache.
    if (current && current.uid !== crd.metadata.uid) await this.release(current);
    this.byName.set(name, { crd, uid: crd.metadata.uid ?? '', key, versions: this.build(crd) });
    return true;
  }

  /** Stops serving the CRD; returns true when it was served. */
  async remove(name: string): Promise<boolean> {
    const current = this.byName.get(name);
    if (!current) return false;
    this.byName.delete(name);
    await this.release(current);
    return true;
  }

  async close(): Promise<void> {
    for (const name of [...this.byName.keys()]) await this.remove(name);
  }

  private async release(serving: CRDServing): Promise<void> {
    await this.installer.releaseDynamicResource(serving.crd.spec.group, serving.crd.spec.names.plural);
  }

  private build(crd: CustomResourceDefinition): CRDServing['versions'] {
    const versions: CRDServing['versions'] = new Map();
    const storage = storageVersionOf(crd)?.name ?? '';
    const storageAPIVersion = apiVersionOf(crd.spec.group, storage);
    const multiVersion = (crd.spec.versions ?? []).length > 1;
    // A Webhook CRD converts even with one version: objects stored under a removed one still read.
    const converter = crd.spec.conversion?.strategy === 'Webhook' ? new WebhookConverter(crd.spec.conversion.webhook as WebhookConversion | undefined, { resolveService: this.resolveService }) : undefined;
    const listKind = crd.status?.acceptedNames?.listKind ?? crd.spec.names.listKind ?? `${crd.spec.names.kind}List`;
    const defaulter = crdVersionDefaulter(crd, (version) => versions.get(version)?.scope.validator);
    for (const served of servedVersions(crd)) {
      const apiVersion = apiVersionOf(served.definition.group, served.definition.version);
      let wrap: ((s: Storage) => Storage) | undefined;
      if (converter) wrap = (s) => webhookConvertingStorage(s, { servedAPIVersion: apiVersion, storageAPIVersion, listKind, converter });
      else if (multiVersion) wrap = (s) => convertingStorage(s, apiVersion, storageAPIVersion);
      const scope = this.installer.buildDynamicScope(served.definition, served.schemas, wrap);
      scope.versionConverter = crdVersionConverter(crd, apiVersion, converter);
      scope.versionDefaulter = defaulter;
      try {
        // Compile now: a schema the validator cannot build is logged at once, not at first use.
        scope.validator.unknownFields({});
      } catch (err) {
        this.log(`customresourcedefinition ${crd.metadata.name}: version ${served.definition.version}: ${(err as Error).message}`);
      }
      versions.set(served.definition.version, { scope, entry: { ...served, storageVersion: storage } });
    }
    return versions;
  }
}

/**
 * A served version's VersionConverter, as kube's crConverter converts a webhook-patched custom
 * resource back (ConvertToVersion): any version the CRD lists, served or not (its validVersions),
 * through the CRD's conversion: None sets the apiVersion, Webhook asks the conversion webhook.
 */
function crdVersionConverter(crd: CustomResourceDefinition, servedAPIVersion: string, converter: WebhookConverter | undefined): VersionConverter {
  const valid = new Set((crd.spec.versions ?? []).map((v) => apiVersionOf(crd.spec.group, v.name)));
  return async (obj: KubeObject) => {
    const from = obj.apiVersion;
    if (typeof from !== 'string' || !valid.has(from)) return undefined;
    if (from === servedAPIVersion) return obj;
    if (!converter) return { ...obj, apiVersion: servedAPIVersion };
    return (await converter.convert([obj], servedAPIVersion, { gvk: gvkString(from, obj.kind), list: false }))[0];
  };
}

/**
 * A CRD's VersionDefaulter, as kube's unstructuredDefaulter: an object of the CRD's kind in any
 * version the CRD lists gets the structural defaults of that version's schema (a served version's
 * validator, or one compiled on first use for a version not served); another kind or version is
 * left alone.
 */
function crdVersionDefaulter(crd: CustomResourceDefinition, servedValidator: (version: string) => SchemaValidator | undefined): VersionDefaulter {
  const unserved = new Map<string, SchemaValidator>();
  const kind = crd.status?.acceptedNames?.kind || crd.spec.names.kind;
  return (obj) => {
    if (obj.kind !== kind || typeof obj.apiVersion !== 'string') return;
    const listed = (crd.spec.versions ?? []).find((v) => apiVersionOf(crd.spec.group, v.name) === obj.apiVersion);
    if (!listed) return;
    let validator = servedValidator(listed.name) ?? unserved.get(listed.name);
    if (!validator) {
      const { definition, schemas } = servedVersion(crd, listed);
      validator = lazyValidator(definition, new Lazy(() => schemas, () => `the schema of ${definition.plural}.${definition.group}/${definition.version}`)).validator;
      unserved.set(listed.name, validator);
    }
    validator.applyDefaults(obj);
  };
}
