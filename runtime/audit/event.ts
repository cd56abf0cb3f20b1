/**
 * Pieces of an audit Event taken from the request and response (k8s.io/apiserver/pkg/audit
 * request.go): timestamps, source IPs, the user, the object reference, decoded bodies and the
 * response status.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { yaml } from '../api/yaml.js';
import { inexactIntegerOf } from '../api/json-integers.js';
import { inexactYAMLIntegerOf } from '../endpoints/yaml-integers.js';
import type { UserInfo } from '../api/auth.js';
import type { RequestInfo } from '../endpoints/handler.js';
import type { EventUser, ObjectReference, ResponseStatus } from './types.js';

/** kube truncates user agents to this many characters (maxUserAgentLength). */
const MAX_USER_AGENT_LENGTH = 1024;
/**
 * Bodies nested deeper than this are not recorded: no Kubernetes object comes close, and it keeps
 * serialising the event safe against hostile input.
 */
const MAX_RECORDED_DEPTH = 200;

/** Milliseconds since the epoch with sub-millisecond precision. */
export function epochMillis(monotonic: number = performance.now()): number {
  return performance.timeOrigin + monotonic;
}

/** metav1.MicroTime's RFC 3339 form: `2006-01-02T15:04:05.000000Z`. */
export function microTime(epochMs: number): string {
  const micros = Math.floor(epochMs * 1000);
  const ms = Math.floor(micros / 1000);
  const iso = new Date(ms).toISOString(); // 2006-01-02T15:04:05.000Z
  return `${iso.slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
}

/**
 * The client's addresses, as kube's utilnet.SourceIPs: X-Forwarded-For entries, then X-Real-Ip
 * unless already listed, then the connection's remote address unless it is the last one listed.
 */
export function sourceIPs(headers: IncomingHttpHeaders, remoteAddress: string | undefined): string[] {
  const ips: string[] = [];
  for (const part of headerString(headers['x-forwarded-for']).split(',')) {
    const ip = normalizeIP(part);
    if (ip) ips.push(ip);
  }
  const realIP = normalizeIP(headerString(headers['x-real-ip']));
  if (realIP && !ips.includes(realIP)) ips.push(realIP);
  const remote = normalizeIP(remoteAddress ?? '');
  if (remote && ips[ips.length - 1] !== remote) ips.push(remote);
  return ips;
}

function headerString(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

/** A valid IP in canonical form (IPv4-mapped IPv6 as IPv4, as Go prints it), or undefined. */
function normalizeIP(raw: string): string | undefined {
  const value = raw.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(value);
  if (mapped) return mapped[1];
  return isIP(value) ? value : undefined;
}

export function userAgentOf(headers: IncomingHttpHeaders): string | undefined {
  const ua = headerString(headers['user-agent']);
  if (!ua) return undefined;
  return ua.length > MAX_USER_AGENT_LENGTH ? `${ua.slice(0, MAX_USER_AGENT_LENGTH)}...TRUNCATED` : ua;
}

/** authentication/v1 UserInfo; `{}` when no one is authenticated yet. */
export function eventUser(user: UserInfo | undefined): EventUser {
  if (!user) return {} as EventUser;
  const out: EventUser = { username: user.username };
  if (user.uid) out.uid = user.uid;
  if (user.groups.length > 0) out.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) out.extra = structuredClone(user.extra);
  return out;
}

/** The object reference of a resource request; undefined for non-resource requests. */
export function objectRefOf(info: RequestInfo): ObjectReference | undefined {
  if (!info.isResourceRequest) return undefined;
  return compact({
    resource: info.resource,
    namespace: info.namespace,
    name: info.name,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    subresource: info.subresource,
  });
}

/**
 * Fills the reference's empty namespace, name, uid and resourceVersion from the request object's
 * metadata (kube's LogRequestObject), keeping kube's field order.
 */
export function enrichObjectRef(ref: ObjectReference, obj: unknown): ObjectReference {
  const meta = isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : undefined;
  if (!meta) return ref;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return compact({
    resource: ref.resource,
    namespace: ref.namespace || str(meta.namespace),
    name: ref.name || str(meta.name),
    uid: ref.uid || str(meta.uid),
    apiGroup: ref.apiGroup,
    apiVersion: ref.apiVersion,
    resourceVersion: ref.resourceVersion || str(meta.resourceVersion),
    subresource: ref.subresource,
  });
}

/**
 * The decoded body for the event: JSON (every `…json` media type) or YAML (`…yaml`, as for
 * server-side apply); undefined for other media types (protobuf), undecodable bodies and bodies
 * nested too deeply to record.
 */
export function decodeBody(body: Buffer | string | undefined, contentType: string | undefined): unknown {
  if (body === undefined || body.length === 0) return undefined;
  const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const text = typeof body === 'string' ? body : body.toString('utf8');
  let value: unknown;
  try {
    if (media.endsWith('json')) {
      value = JSON.parse(text);
      // kube records no object it could not decode; kgen refuses such a body (400), and recording
      // it parsed would write another number than the client sent into the audit log.
      if (inexactIntegerOf(text) !== undefined) return undefined;
    } else if (media.endsWith('yaml')) {
      const doc = yaml().parseDocument(text);
      if (doc.errors.length > 0 || inexactYAMLIntegerOf(text, doc) !== undefined) return undefined;
      value = doc.toJS({ maxAliasCount: 100 });
    } else return undefined;
  } catch {
    return undefined;
  }
  return depthWithin(value, MAX_RECORDED_DEPTH) ? value : undefined;
}

/** Whether value nests no deeper than max (iterative, so hostile depth cannot overflow the stack). */
function depthWithin(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return false;
    for (const child of Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return true;
}

/** Drops metadata.managedFields from an object and from each item of a list, in place. */
export function omitManagedFields(obj: unknown): void {
  if (!isRecord(obj)) return;
  if (isRecord(obj.metadata)) delete obj.metadata.managedFields;
  if (Array.isArray(obj.items)) for (const item of obj.items) if (isRecord(item) && isRecord(item.metadata)) delete item.metadata.managedFields;
}

/**
 * responseStatus: the bounded fields of a Status response (kube's LogResponseObject), otherwise
 * just the code (the audit response writer's WriteHeader).
 */
export function responseStatusOf(code: number, body: unknown): ResponseStatus {
  if (isRecord(body) && body.kind === 'Status') {
    return compact({
      metadata: {},
      status: typeof body.status === 'string' ? body.status : undefined,
      message: typeof body.message === 'string' ? body.message : undefined,
      reason: typeof body.reason === 'string' ? body.reason : undefined,
      details: isRecord(body.details) ? body.details : undefined,
      code,
    }) as ResponseStatus;
  }
  return { metadata: {}, code };
}

/** Copies obj without undefined or empty-string fields (Go's omitempty), keeping key order. */
export function compact<T extends object>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined && v !== '') out[k] = v;
  return out as T;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
