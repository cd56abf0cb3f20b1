/**
 * The audit filter (k8s.io/apiserver/pkg/endpoints/filters/audit.go, with WithAuditInit): gives
 * every request an audit ID (the `Audit-Id` response header; a client-sent `Audit-ID` is kept, as
 * kube does), evaluates the policy for the authenticated user, and sends the request's events to
 * the sink:
 *
 *   RequestReceived   before the rest of the chain runs
 *   ResponseStarted   when a long-running response (watch) starts streaming
 *   ResponseComplete  when the response is complete (for a watch: when the stream ends)
 *   Panic             when the rest of the chain threw; the error is rethrown for panic recovery
 *
 * Stages the policy omits are skipped. If the sink refuses RequestReceived the request fails with
 * a 500, as kube's does; the log backend never refuses (it drops and counts instead).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { newInternalError } from '../../api/status.js';
import { AuditContext } from '../../audit/context.js';
import { newPolicyRuleEvaluator, type AuditAttributes, type PolicyRuleEvaluator } from '../../audit/checker.js';
import { AuditLogBackend, type AuditLogOptions } from '../../audit/log.js';
import { newScrubber } from '../../audit/redact.js';
import { loadPolicyFile } from '../../audit/policy.js';
import type { AuditSink, Policy, ResponseStatus } from '../../audit/types.js';
import type { APIResponse, RequestInfo, StreamResponse } from '../../endpoints/handler.js';
import { errorResponse } from '../../endpoints/responsewriters.js';
import { resolveRequestInfo } from '../requestinfo.js';
import { isLongRunning as isLongRunningRequest } from './context.js';
import type { Filter, RequestContext } from './types.js';

export const AUDIT_ID_HEADER = 'Audit-Id';

export interface AuditFilterOptions {
  /** The audit policy (or its evaluator); undefined records nothing, as kube without --audit-policy-file. */
  policy: Policy | PolicyRuleEvaluator | undefined;
  /** Where events go; undefined records nothing. */
  sink: AuditSink | undefined;
  /** Which requests are long-running (get a ResponseStarted event); default: the chain's check (watch and streaming subresources). */
  isLongRunning?: (info: RequestInfo) => boolean;
  /** Credentials the server accepts (the token file's tokens): scrubbed from every event, whoever sent them. */
  knownCredentials?: Iterable<string>;
}

/** A client-chosen audit ID is kept only when it is this tame. */
const CLIENT_AUDIT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function auditFilter(options: AuditFilterOptions): Filter {
  const { sink } = options;
  const evaluator = options.policy && ('evaluatePolicyRule' in options.policy ? options.policy : newPolicyRuleEvaluator(options.policy));
  const isLongRunning = options.isLongRunning ?? isLongRunningRequest;
  const known = newScrubber(options.knownCredentials ?? []);
  if (!evaluator || !sink) {
    // Nothing is recorded: only the Audit-Id header (kube sets it on every response).
    return (next) => (ctx) => {
      ctx.responseHeaders[AUDIT_ID_HEADER] = auditIDOf(ctx.request.headers);
      return next(ctx);
    };
  }
  return (next) => async (ctx) => {
    const auditID = auditIDOf(ctx.request.headers);
    ctx.responseHeaders[AUDIT_ID_HEADER] = auditID;
    const info = ctx.info ?? requestInfoOf(ctx);
    const config = evaluator.evaluatePolicyRule(attributesOf(info, ctx));
    if (config.level === 'None') return next(ctx);
    ctx.auditLevel = config.level;

    const audit = new AuditContext(ctx, info, config, auditID, sink, known);
    if (!audit.emit('RequestReceived')) return errorResponse(newInternalError('failed to store audit event'));
    let response: APIResponse;
    try {
      response = await next(ctx);
      // The body is read innermost in the chain (after authorization), so it is known only now;
      // RequestReceived never carries it.
      audit.logRequestBody();
    } catch (err) {
      audit.logRequestBody();
      audit.responseStatus = panicStatus(err);
      audit.emit('Panic');
      throw err;
    }
    if (response.kind === 'stream') return auditedStream(audit, response, isLongRunning(info));
    audit.logResponse(response);
    audit.emit('ResponseComplete');
    return response;
  };
}

/** Records a request that authentication refused; see failedAuthenticationAudit. */
export type FailedAuthenticationAuditor = (ctx: RequestContext, response: APIResponse) => void;

/**
 * kube's WithFailedAuthenticationAudit: the authentication filter calls this with the 401 it is
 * about to send. Audit runs after authentication, so without it refused requests would leave no
 * trace. As in kube, one ResponseStarted event is recorded (no user), its responseStatus message
 * naming the kinds of credentials tried (never their values).
 */
export function failedAuthenticationAudit(options: Omit<AuditFilterOptions, 'isLongRunning'>): FailedAuthenticationAuditor {
  const { sink } = options;
  const known = newScrubber(options.knownCredentials ?? []);
  const evaluator = options.policy && ('evaluatePolicyRule' in options.policy ? options.policy : newPolicyRuleEvaluator(options.policy));
  return (ctx, response) => {
    if (!evaluator || !sink) return;
    const info = ctx.info ?? requestInfoOf(ctx);
    const config = evaluator.evaluatePolicyRule(attributesOf(info, ctx));
    if (config.level === 'None') return;
    const auditID = auditIDOf(ctx.request.headers);
    ctx.responseHeaders[AUDIT_ID_HEADER] = auditID;
    const audit = new AuditContext(ctx, info, config, auditID, sink, known);
    audit.responseStatus = { metadata: {}, message: attemptedAuthentication(ctx), code: response.code };
    audit.emit('ResponseStarted');
  };
}

/** kube's getAuthMethods: which kinds of credentials the request carried. */
function attemptedAuthentication(ctx: RequestContext): string {
  const methods: string[] = [];
  const auth = (Array.isArray(ctx.request.headers.authorization) ? ctx.request.headers.authorization[0] : ctx.request.headers.authorization)?.trim() ?? '';
  const scheme = auth.split(' ')[0].toLowerCase();
  if (scheme === 'basic' && auth.includes(' ')) methods.push('basic');
  if (scheme === 'bearer' && auth.split(' ').length > 1) methods.push('bearer');
  if (ctx.url.searchParams.get('access_token')?.trim()) methods.push('access_token');
  if ((ctx.request as { clientCertificate?: unknown }).clientCertificate) methods.push('x509');
  return methods.length > 0 ? `Authentication failed, attempted: ${methods.join(', ')}` : 'Authentication failed, no credentials provided';
}

/**
 * Opens what --audit-policy-file and --audit-log-path ask for. As in kube, events are recorded
 * only when both are given; a bad policy or an unopenable log path throws (a startup error).
 */
export function openAudit(opts: { policyFile?: string; logPath?: string; warn?: (message: string) => void; knownCredentials?: Iterable<string> } & AuditLogOptions): {
  filter: Filter;
  /** For the authentication filter's 401 path (kube's WithFailedAuthenticationAudit). */
  failedAuthentication: FailedAuthenticationAuditor;
  backend?: AuditLogBackend;
  /** Flushes and closes the log; call on shutdown after the listener closed. */
  close(): Promise<void>;
} {
  const policy = opts.policyFile ? loadPolicyFile(opts.policyFile, { warn: opts.warn }) : undefined;
  if (opts.logPath && !policy) opts.warn?.('audit: --audit-log-path is set without --audit-policy-file: no events will be recorded');
  if (policy && !opts.logPath) opts.warn?.('audit: --audit-policy-file is set without --audit-log-path: no events will be recorded');
  const backend = policy && opts.logPath ? AuditLogBackend.open(opts.logPath, opts) : undefined;
  return {
    filter: auditFilter({ policy, sink: backend, knownCredentials: opts.knownCredentials }),
    failedAuthentication: failedAuthenticationAudit({ policy, sink: backend, knownCredentials: opts.knownCredentials }),
    backend,
    close: async () => backend?.close(),
  };
}

function auditIDOf(headers: IncomingHttpHeaders): string {
  const sent = headers['audit-id'];
  const value = Array.isArray(sent) ? sent[0] : sent;
  return value !== undefined && CLIENT_AUDIT_ID.test(value) ? value : randomUUID();
}

/** The request info when the request-info filter did not run (the filter used on its own). */
function requestInfoOf(ctx: RequestContext): RequestInfo {
  return resolveRequestInfo(ctx.request.method, ctx.url.pathname, ctx.url.searchParams);
}

function attributesOf(info: RequestInfo, ctx: RequestContext): AuditAttributes {
  // Audit runs before impersonation: the policy sees the authenticated user.
  const user = ctx.impersonator ?? ctx.user;
  const { verb, isResourceRequest, path, namespace, apiGroup, resource, subresource, name } = info;
  return { user, verb, isResourceRequest, path, namespace, apiGroup, resource, subresource, name };
}

function panicStatus(err: unknown): ResponseStatus {
  const message = err instanceof Error ? err.message : String(err);
  return { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${message}`, reason: 'InternalError', code: 500 };
}

/**
 * Wraps a streamed response: ResponseStarted now (long-running requests), ResponseComplete once
 * when the stream ends, whether it ran out, failed, or was closed (client gone, shutdown).
 */
function auditedStream(audit: AuditContext, response: StreamResponse, longRunning: boolean): StreamResponse {
  audit.responseStatus = { metadata: {}, code: response.code };
  if (longRunning) audit.emit('ResponseStarted');
  let completed = false;
  const complete = () => {
    if (completed) return;
    completed = true;
    audit.emit('ResponseComplete');
  };
  const source = response.chunks;
  async function* chunks(): AsyncGenerator<string | Buffer> {
    try {
      yield* source;
    } finally {
      complete();
    }
  }
  return {
    kind: 'stream',
    code: response.code,
    contentType: response.contentType,
    headers: response.headers,
    chunks: chunks(),
    close() {
      response.close();
      complete();
    },
    passThrough: response.passThrough,
  };
}
