/**
 * Impersonation (kube's WithImpersonation): `Impersonate-User`, `Impersonate-Group` (repeatable),
 * `Impersonate-Uid` and `Impersonate-Extra-<key>` make the request act as another user. Each
 * requested attribute is authorized for the real user as verb `impersonate` on users, groups or
 * serviceaccounts (group ""), or on uids and userextras/<key> (group authentication.k8s.io); the
 * first refusal is kube's 403. Groups, uid or extras without a user are a 400 (kube answers 500).
 * The impersonation headers are removed; the real user is kept as `ctx.impersonator`.
 */
import type { AuthorizationAttributes, Authorizer, UserInfo } from '../../api/auth.js';
import { ANONYMOUS_USER } from '../../api/auth.js';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../../api/names.js';
import { ownValue, setOwnValue } from '../../api/ownkeys.js';
import { newBadRequest } from '../../api/status.js';
import { errorResponse } from '../../endpoints/responsewriters.js';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS } from '../../authentication/user.js';
import type { IncomingAPIRequest } from '../../api/request.js';
import { forbiddenResponse } from './authorization.js';
import type { Filter } from './types.js';

export const IMPERSONATE_USER_HEADER = 'impersonate-user';
export const IMPERSONATE_GROUP_HEADER = 'impersonate-group';
export const IMPERSONATE_UID_HEADER = 'impersonate-uid';
export const IMPERSONATE_EXTRA_PREFIX = 'impersonate-extra-';

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
const AUTHENTICATION_GROUP = 'authentication.k8s.io';

/** One thing the caller asks to act as, with the resource it is authorized against. */
interface ImpersonationRequest {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  name: string;
  namespace?: string;
  /** The extra key, for UserExtra. */
  extraKey?: string;
}

/** Every value of a header, one per header line (Node joins repeated headers with ", "). */
function headerValues(request: IncomingAPIRequest, name: string): string[] {
  if (request.headers[name] === undefined) return [];
  const distinct = request.headersDistinct?.[name];
  if (distinct) return distinct;
  const value = request.headers[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

function describe(requests: ImpersonationRequest[]): string {
  return `[${requests.map((r) => `{${r.kind} ${r.namespace ?? ''} ${r.name}}`).join(' ')}]`;
}

/**
 * The namespace and name of a service account's user name (kube's serviceaccount.SplitUsername):
 * `system:serviceaccount:<ns>:<name>` with a valid namespace (DNS label) and name (DNS
 * subdomain); any other name is a user's, whose impersonation is authorized on `users`.
 */
function serviceAccountOf(username: string): [string, string] | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (nameIsDNSLabel(namespace, false).length > 0 || nameIsDNSSubdomain(name, false).length > 0) return undefined;
  return [namespace, name];
}

/** kube's buildImpersonationRequests. */
export function impersonationRequests(request: IncomingAPIRequest): ImpersonationRequest[] {
  const out: ImpersonationRequest[] = [];
  const user = headerValues(request, IMPERSONATE_USER_HEADER)[0] ?? '';
  if (user !== '') {
    const sa = serviceAccountOf(user);
    if (sa) out.push({ kind: 'ServiceAccount', namespace: sa[0], name: sa[1] });
    else out.push({ kind: 'User', name: user });
  }
  const groups = headerValues(request, IMPERSONATE_GROUP_HEADER);
  for (const group of groups) out.push({ kind: 'Group', name: group });
  let hasExtra = false;
  for (const header of Object.keys(request.headers).sort()) {
    if (!header.startsWith(IMPERSONATE_EXTRA_PREFIX)) continue;
    hasExtra = true;
    const extraKey = unescapeExtraKey(header.slice(IMPERSONATE_EXTRA_PREFIX.length).toLowerCase());
    for (const value of headerValues(request, header)) out.push({ kind: 'UserExtra', name: value, extraKey });
  }
  const uid = headerValues(request, IMPERSONATE_UID_HEADER)[0] ?? '';
  if (uid !== '') out.push({ kind: 'UID', name: uid });
  if ((groups.length > 0 || hasExtra || uid !== '') && user === '') {
    throw newBadRequest(`requested ${describe(out)} without impersonating a user`);
  }
  return out;
}

function actingAs(requestor: UserInfo, r: ImpersonationRequest): AuthorizationAttributes {
  const base = { user: requestor, verb: 'impersonate', isResourceRequest: true, path: '', namespace: r.namespace ?? '', name: r.name, subresource: '' };
  switch (r.kind) {
    case 'ServiceAccount':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'serviceaccounts' };
    case 'User':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'users' };
    case 'Group':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'groups' };
    case 'UserExtra':
      return { ...base, apiGroup: AUTHENTICATION_GROUP, apiVersion: 'v1', resource: 'userextras', subresource: r.extraKey! };
    case 'UID':
      return { ...base, apiGroup: AUTHENTICATION_GROUP, apiVersion: 'v1', resource: 'uids' };
  }
}

/** Appends values to extra[key]; keys are data ("constructor", "__proto__": api/ownkeys.ts). */
function addExtra(extra: Record<string, string[]>, key: string, values: string[]): void {
  const existing = ownValue(extra, key) as string[] | undefined;
  if (existing) existing.push(...values);
  else setOwnValue(extra, key, [...values]);
}

/** The user the request acts as, once every part was allowed (kube's group defaulting). */
function impersonatedUser(requests: ImpersonationRequest[], groupsSpecified: boolean): UserInfo {
  let username = '';
  let uid: string | undefined;
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    if (r.kind === 'ServiceAccount') {
      username = `${SERVICE_ACCOUNT_PREFIX}${r.namespace}:${r.name}`;
      if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${r.namespace}`];
    } else if (r.kind === 'User') username = r.name;
    else if (r.kind === 'Group') groups.push(r.name);
    else if (r.kind === 'UserExtra') addExtra(extra, r.extraKey!, [r.name]);
    else uid = r.name;
  }
  if (username !== ANONYMOUS) {
    if (!groups.includes(ALL_AUTHENTICATED) && !groups.includes(ALL_UNAUTHENTICATED)) groups.push(ALL_AUTHENTICATED);
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) {
    groups.push(ALL_UNAUTHENTICATED);
  }
  const user: UserInfo = { username, groups };
  if (uid !== undefined) user.uid = uid;
  if (Object.keys(extra).length > 0) user.extra = extra;
  return user;
}

function removeImpersonationHeaders(request: IncomingAPIRequest): void {
  for (const header of Object.keys(request.headers)) {
    if (header === IMPERSONATE_USER_HEADER || header === IMPERSONATE_GROUP_HEADER || header === IMPERSONATE_UID_HEADER || header.startsWith(IMPERSONATE_EXTRA_PREFIX)) {
      delete request.headers[header];
      if (request.headersDistinct) delete request.headersDistinct[header];
    }
  }
}

/** Whether any impersonation header is present (most requests: none). */
function asksToImpersonate(request: IncomingAPIRequest): boolean {
  for (const header in request.headers) if (header.startsWith('impersonate-')) return true;
  return false;
}

export function withImpersonation(authorizer: Authorizer): Filter {
  const impersonate = withImpersonationHeaders(authorizer);
  return (next) => {
    const impersonating = impersonate(next);
    return (ctx) => (asksToImpersonate(ctx.request) ? impersonating(ctx) : next(ctx));
  };
}

function withImpersonationHeaders(authorizer: Authorizer): Filter {
  return (next) => async (ctx) => {
    let requests: ImpersonationRequest[];
    try {
      requests = impersonationRequests(ctx.request);
    } catch (err) {
      return errorResponse(err);
    }
    if (requests.length === 0) return next(ctx);
    const requestor = ctx.user ?? ANONYMOUS_USER;
    for (const r of requests) {
      const attributes = actingAs(requestor, r);
      const result = await authorizer.authorize(attributes);
      if (result.decision !== 'Allow') return forbiddenResponse(attributes, result.reason);
    }
    const groupsSpecified = headerValues(ctx.request, IMPERSONATE_GROUP_HEADER).length > 0;
    ctx.impersonator = requestor;
    ctx.user = impersonatedUser(requests, groupsSpecified);
    removeImpersonationHeaders(ctx.request);
    return next(ctx);
  };
}
