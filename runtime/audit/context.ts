/**
 * The audit state of one request (kube's AuditContext): the event being built as the request
 * moves through the chain, and the emission of one snapshot of it per stage. Snapshots are fresh
 * objects, so a sink may keep them; everything recorded passes through redaction first.
 */
import type { ObjectResponse, RequestInfo } from '../endpoints/handler.js';
import type { AuthorizationResult, UserInfo } from '../api/auth.js';
import type { IncomingAPIRequest } from '../api/request.js';
import {
  compact,
  decodeBody,
  enrichObjectRef,
  epochMillis,
  eventUser,
  isRecord,
  microTime,
  objectRefOf,
  omitManagedFields,
  responseStatusOf,
  sourceIPs,
  userAgentOf,
} from './event.js';
import { PATCH_AUDIT_ANNOTATION_PREFIX } from '../admission/webhook/mutating.js';
import { composeScrubbers, newScrubber, REDACTED, redactObject, redactPatchOperations, redactRequestURI, requestCredentials, scrubCredentials, type Scrubber } from './redact.js';
import { AUDIT_API_VERSION, levelLess, type AuditEvent, type AuditSink, type ObjectReference, type RequestAuditConfig, type ResponseStatus, type Stage } from './types.js';

export const DECISION_ANNOTATION = 'authorization.k8s.io/decision';
export const REASON_ANNOTATION = 'authorization.k8s.io/reason';

/**
 * What an audit event reads of a request's context: the fields of the server's RequestContext
 * (runtime/server/filters/types.ts, which satisfies this) that the filters before audit fill in.
 */
export interface AuditedRequestContext {
  readonly request: IncomingAPIRequest;
  presentedAuthorization?: string;
  user?: UserInfo;
  impersonator?: UserInfo;
  authorization?: AuthorizationResult;
  readonly startedAt: number;
  readonly annotations: Record<string, string>;
}

/** Verbs whose request body is an object (or patch, or DeleteOptions) worth recording. */
const BODY_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export class AuditContext {
  private readonly requestURI: string;
  private readonly receivedAt: string;
  private readonly scrubber: Scrubber | undefined;
  private objectRef: ObjectReference | undefined;
  private requestObject: unknown;
  private responseObject: unknown;
  responseStatus: ResponseStatus | undefined;

  constructor(
    private readonly ctx: AuditedRequestContext,
    readonly info: RequestInfo,
    readonly config: RequestAuditConfig,
    readonly auditID: string,
    private readonly sink: AuditSink,
    /** Scrubs the credentials the server knows (the token file's), whoever presented them. */
    knownCredentials?: Scrubber,
  ) {
    this.requestURI = redactRequestURI(ctx.request.url);
    this.receivedAt = microTime(epochMillis(ctx.startedAt));
    // What the request presented, read before the authenticator removed `Authorization`.
    const authorization = ctx.presentedAuthorization ?? ctx.request.headers.authorization;
    const presented = requestCredentials({ authorization }, ctx.request.url);
    this.scrubber = composeScrubbers(newScrubber(presented), knownCredentials);
    this.objectRef = objectRefOf(info);
  }

  /** Emits the event at stage unless the policy omits it; false when the sink refused it. */
  emit(stage: Stage): boolean {
    if (this.config.omitStages.includes(stage)) return true;
    return this.sink.processEvents(this.snapshot(stage));
  }

  /**
   * Records the request body (kube's LogRequestObject / LogRequestPatch): at Metadata the object's
   * name, namespace, uid and resourceVersion complete objectRef; from Request on, the body itself.
   */
  logRequestBody(): void {
    const { request } = this.ctx;
    if (!this.info.isResourceRequest || !BODY_VERBS.has(this.info.verb) || !request.body?.length) return;
    const isPatch = this.info.verb === 'patch';
    const recordBody = !levelLess(this.config.level, 'Request');
    if (!recordBody && (isPatch || this.info.verb.startsWith('delete'))) return;
    const contentType = request.headers['content-type'];
    const obj = decodeBody(request.body, Array.isArray(contentType) ? contentType[0] : contentType);
    if (obj === undefined) return;
    // A patch is not the object: kube records it as sent and leaves objectRef alone.
    if (this.objectRef && !isPatch) this.objectRef = enrichObjectRef(this.objectRef, obj);
    if (!recordBody) return;
    this.requestObject = this.prepare(obj);
  }

  /** Records an object response: its status and, at RequestResponse, the object (LogResponseObject). */
  logResponse(response: ObjectResponse): void {
    const full = this.config.level === 'RequestResponse';
    const wanted = full ? this.info.isResourceRequest || mayBeAPIObject(response.payload) : response.code >= 400 || response.payload.slice(0, 512).includes('"Status"');
    const body = wanted ? decodeBody(response.payload, response.contentType) : undefined;
    this.responseStatus = responseStatusOf(response.code, body);
    // Non-resource responses that are not API objects (OpenAPI, /version) are not recorded, as in kube.
    if (full && body !== undefined && (this.info.isResourceRequest || (isRecord(body) && typeof body.kind === 'string'))) {
      this.responseObject = this.prepare(body);
    }
  }

  private prepare(obj: unknown): unknown {
    if (this.config.omitManagedFields) omitManagedFields(obj);
    if (Array.isArray(obj)) redactPatchOperations(obj, this.info);
    else redactObject(obj, this.info);
    return obj;
  }

  /** The event as of stage, in kube's field order, with every credential the request carried scrubbed. */
  snapshot(stage: Stage): AuditEvent {
    const { ctx } = this;
    const impersonating = ctx.impersonator !== undefined;
    const event: AuditEvent = compact({
      kind: 'Event',
      apiVersion: AUDIT_API_VERSION,
      level: this.config.level,
      auditID: this.auditID,
      stage,
      requestURI: this.requestURI,
      verb: this.info.verb,
      user: eventUser(impersonating ? ctx.impersonator : ctx.user),
      impersonatedUser: impersonating ? eventUser(ctx.user) : undefined,
      sourceIPs: sourceIPs(ctx.request.headers, ctx.request.remoteAddress),
      userAgent: userAgentOf(ctx.request.headers),
      objectRef: this.objectRef ? { ...this.objectRef } : undefined,
      responseStatus: this.responseStatus ? structuredClone(this.responseStatus) : undefined,
      requestObject: stage === 'RequestReceived' ? undefined : this.requestObject,
      responseObject: stage === 'ResponseComplete' ? this.responseObject : undefined,
      requestReceivedTimestamp: this.receivedAt,
      stageTimestamp: stage === 'RequestReceived' ? this.receivedAt : microTime(epochMillis()),
      annotations: this.annotations(),
    });
    return scrubCredentials(event, this.scrubber);
  }

  /** The request's audit annotations plus the authorization decision, sorted as Go marshals a map. */
  private annotations(): Record<string, string> | undefined {
    const all: Record<string, string> = { ...this.ctx.annotations };
    for (const key in all) if (key.startsWith(PATCH_AUDIT_ANNOTATION_PREFIX)) all[key] = redactPatchAnnotation(all[key], this.info);
    const authz = this.ctx.authorization;
    if (authz) {
      all[DECISION_ANNOTATION] = authz.decision === 'Allow' ? 'allow' : 'forbid';
      if (authz.reason) all[REASON_ANNOTATION] = authz.reason;
    }
    const keys = Object.keys(all).sort();
    if (keys.length === 0) return undefined;
    return Object.fromEntries(keys.map((k) => [k, all[k]]));
  }
}

/**
 * A mutating webhook's patch annotation ({configuration, webhook, patch, patchType}) with a
 * Secret's values redacted as a client's JSON patch is (redactPatchOperations).
 */
function redactPatchAnnotation(value: string, info: RequestInfo): string {
  if (info.apiGroup !== '' || info.resource !== 'secrets') return value;
  try {
    const annotation: unknown = JSON.parse(value);
    if (!isRecord(annotation) || !Array.isArray(annotation.patch)) return REDACTED;
    redactPatchOperations(annotation.patch, info);
    return JSON.stringify(annotation);
  } catch {
    return REDACTED;
  }
}

/** Cheap pre-check before decoding a non-resource response: API objects carry a kind up front. */
function mayBeAPIObject(payload: string): boolean {
  return payload.slice(0, 512).includes('"kind"');
}
