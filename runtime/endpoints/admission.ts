/**
 * Admission for one write request: builds AdmissionAttributes from the request and scope
 * (kube's admission.NewAttributesRecord), runs the scope's chain, and gathers the warnings and
 * audit annotations for the response. Handlers use one RequestAdmission per request.
 */
import { ANONYMOUS_USER, type AdmissionAttributes, type AdmissionOperation, type UserInfo } from '../api/auth.js';
import type { KubeObject } from '../api/meta.js';
import { requestWarnings, type APIRequest, type RequestScope } from './handler.js';
import type { AdmissionContext, AuditLevel } from '../api/admission.js';

export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

export interface RequestAdmissionConfig {
  /** '' (the resource), 'status', 'scale', 'finalize'. */
  subresource: string;
  dryRun: boolean;
  /** The kind of the objects admission sees; the scope's kind by default (autoscaling/v1 Scale for `scale`). */
  kind?: { group: string; version: string; kind: string };
}

export const SCALE_KIND = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

/** The authenticated user of a request (anonymous until the authentication filter sets one). */
export function userOf(req: APIRequest): UserInfo {
  return req.user ?? ANONYMOUS_USER;
}

/** CreateOptions/UpdateOptions as kube hands them to webhooks, from the request's query. */
export function operationOptions(kind: OptionsKind, query: URLSearchParams, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const options: Record<string, unknown> = { kind, apiVersion: 'meta.k8s.io/v1' };
  const dryRun = query.getAll('dryRun');
  if (dryRun.length > 0) options.dryRun = dryRun;
  const fieldManager = query.get('fieldManager');
  if (fieldManager) options.fieldManager = fieldManager;
  const fieldValidation = query.get('fieldValidation');
  if (fieldValidation) options.fieldValidation = fieldValidation;
  return { ...options, ...extra };
}

export class RequestAdmission implements AdmissionContext {
  /** The request's warnings (requestWarnings): a webhook's reach the client with its denial too. */
  readonly warnings: string[];
  /** What admission recorded; copied to the audit event after each phase (recordAnnotations). */
  readonly annotations: Record<string, string> = {};

  constructor(
    private readonly scope: RequestScope,
    private readonly req: APIRequest,
    private readonly config: RequestAdmissionConfig,
  ) {
    this.warnings = requestWarnings(req);
  }

  get auditLevel(): AuditLevel | undefined {
    return this.req.auditLevel;
  }

  /**
   * The request's signal, read only when a plugin asks for it (a webhook call): the request
   * makes its AbortController lazily, and most writes meet no plugin that needs one.
   */
  get signal(): AbortSignal | undefined {
    return this.req.signal;
  }

  /** Mutating admission; resolves with the (possibly replaced) object. */
  async mutate(operation: AdmissionOperation, object: KubeObject | undefined, oldObject: KubeObject | undefined, options: Record<string, unknown>): Promise<KubeObject | undefined> {
    const admission = this.scope.admission;
    if (!admission) return object;
    const attrs = this.attributes(operation, object, oldObject, options);
    try {
      await admission.mutate(attrs, this);
    } finally {
      this.recordAnnotations();
    }
    return attrs.object;
  }

  /**
   * Validating admission; objects are copies, so a plugin cannot change what is stored. Each is
   * copied when a plugin first reads it: most writes meet no plugin that looks at them.
   */
  async validate(operation: AdmissionOperation, object: KubeObject | undefined, oldObject: KubeObject | undefined, options: Record<string, unknown>): Promise<void> {
    const admission = this.scope.admission;
    if (!admission) return;
    const attrs = this.attributes(operation, object, oldObject, options);
    if (object !== undefined) copyOnRead(attrs, 'object', object);
    if (oldObject !== undefined) copyOnRead(attrs, 'oldObject', oldObject);
    try {
      await admission.validate(attrs, this);
    } finally {
      this.recordAnnotations();
    }
  }

  /**
   * kube's admission audit handler (admission/audit.go logAnnotations): after each phase, denied
   * or not, admission's annotations join the audit event's. As kube's audit context does, a key
   * already recorded keeps its first value, so a webhook's auditAnnotations (`<webhook name>/<key>`,
   * for a webhook named authorization.k8s.io too) cannot replace the authorizer's.
   */
  private recordAnnotations(): void {
    const event = this.req.auditAnnotations;
    if (!event) return;
    for (const key in this.annotations) if (!Object.hasOwn(event, key)) event[key] = this.annotations[key]!;
  }

  attributes(operation: AdmissionOperation, object: KubeObject | undefined, oldObject: KubeObject | undefined, options: Record<string, unknown>): AdmissionAttributes {
    const { definition } = this.scope;
    const { info } = this.req;
    const name = info.name || object?.metadata?.name || '';
    const attrs: AdmissionAttributes = {
      operation,
      user: userOf(this.req),
      namespace: namespaceOf(this.scope, info.namespace),
      name,
      requestName: info.name,
      resource: { group: definition.group, version: definition.version, resource: definition.plural },
      subresource: this.config.subresource,
      kind: this.config.kind ?? { group: definition.group, version: definition.version, kind: definition.kind },
      dryRun: this.config.dryRun,
      options,
    };
    if (!this.config.kind) {
      if (definition.customResource) attrs.customResource = true;
      if (this.scope.versionConverter) attrs.convertVersion = this.scope.versionConverter;
      if (this.scope.versionDefaulter) attrs.defaultVersion = this.scope.versionDefaulter;
    }
    if (object !== undefined) attrs.object = object;
    if (oldObject !== undefined) attrs.oldObject = oldObject;
    return attrs;
  }
}

/** Makes attrs[prop] a copy of value, made on first read (or replaced by a write). */
function copyOnRead(attrs: AdmissionAttributes, prop: 'object' | 'oldObject', value: KubeObject): void {
  const settle = (v: KubeObject | undefined) => {
    Object.defineProperty(attrs, prop, { value: v, writable: true, enumerable: true, configurable: true });
    return v;
  };
  Object.defineProperty(attrs, prop, {
    enumerable: true,
    configurable: true,
    get: () => settle(structuredClone(value)),
    set: (v: KubeObject | undefined) => settle(v),
  });
}

/** The request's namespace; for a namespace object, its name from the URL (kube's RequestInfo). */
function namespaceOf(scope: RequestScope, urlNamespace: string): string {
  const { definition } = scope;
  const isNamespace = definition.group === '' && definition.plural === 'namespaces';
  return definition.scope === 'Namespaced' || isNamespace ? urlNamespace : '';
}
