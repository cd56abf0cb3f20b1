/**
 * Webhook token authentication (k8s.io/apiserver/plugin/pkg/authenticator/token/webhook), as
 * kube's --authentication-token-webhook-config-file turns it on: a bearer token no other
 * authenticator knows is sent to the webhook as an authentication.k8s.io TokenReview, and the
 * user in its status is believed.
 *
 * - Answers, authenticated or not, are cached for `cacheTTLMs` (kube's
 *   --authentication-token-webhook-cache-ttl, default 2m), keyed by a hash of the token, never the
 *   token itself. A failed call is not cached.
 * - A token the webhook does not authenticate is an authentication error (401), with the
 *   webhook's `status.error` when it gives one; a failed call is one too, naming the cause.
 * - An answer whose status does not decode as kube's TokenReviewStatus (a username that is not a
 *   string, groups or extras that are not lists of strings...) is a failed call, as Go's decoder
 *   fails on it: never a user whose fields later code cannot use.
 */
import { createHash } from 'node:crypto';
import type { UserInfo } from '../api/auth.js';
import { setOwnValue } from '../api/ownkeys.js';
import type { IncomingAPIRequest } from '../api/request.js';
import { postReview, type WebhookEndpoint } from '../webhook/kubeconfig-endpoint.js';
import { TTLCache } from '../webhook/ttl-cache.js';
import { audiencesOf, type AuthenticationResult, type RequestAuthenticator } from './authenticator.js';
import { bearerToken } from './tokenfile.js';

export interface TokenWebhookOptions {
  endpoint: WebhookEndpoint;
  /** Default 2 minutes. */
  cacheTTLMs?: number;
  /** `v1` (default) or `v1beta1` (kube's --authentication-token-webhook-version). */
  version?: 'v1' | 'v1beta1';
  /** The audiences this server accepts (kube's --api-audiences); sent in spec.audiences. */
  audiences?: string[];
  /** Deadline of one call; default 10 s. */
  timeoutMs?: number;
  now?: () => number;
}

interface TokenReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  audiences?: string[];
  error?: string;
}

const DEFAULT_TTL_MS = 2 * 60_000;

export function tokenWebhookAuthenticator(opts: TokenWebhookOptions): RequestAuthenticator {
  const cache = new TTLCache<AuthenticationResult>(8192, opts.now);
  const ttl = opts.cacheTTLMs ?? DEFAULT_TTL_MS;
  const review = async (token: string, audiences: readonly string[] | undefined, key: string): Promise<AuthenticationResult> => {
    const body = {
      apiVersion: `authentication.k8s.io/${opts.version ?? 'v1'}`,
      kind: 'TokenReview',
      metadata: { creationTimestamp: null },
      spec: { token, ...(audiences?.length ? { audiences } : {}) },
      status: { user: {} },
    };
    let answer: unknown;
    try {
      answer = await postReview(opts.endpoint, body, opts.timeoutMs ?? 10_000);
    } catch (err) {
      return { error: `token webhook: ${(err as Error).message}` };
    }
    const status = isObject(answer) ? answer.status : undefined;
    const malformed = decodeError(status);
    if (malformed) return { error: `token webhook: ${malformed}` };
    const result = resultOf((status as TokenReviewStatus | null | undefined) ?? {}, audiences);
    cache.set(key, result, ttl);
    return result;
  };
  return {
    authenticate(request: IncomingAPIRequest) {
      const token = bearerToken(request);
      if (!token) return token === '' ? { error: 'invalid bearer token' } : undefined;
      // kube's webhook authenticator is audience-aware: it asks about the audiences requested
      // (a TokenReview's spec.audiences), else the server's, and caches per audiences and token.
      const audiences = audiencesOf(request) ?? opts.audiences;
      const key = cacheKey(token, audiences);
      const cached = cache.get(key);
      const consume = (result: AuthenticationResult): AuthenticationResult => {
        if (result && 'user' in result) {
          delete request.headers.authorization;
          const user = { ...result.user, groups: [...result.user.groups], ...(result.user.extra ? { extra: structuredClone(result.user.extra) } : {}) };
          return result.audiences ? { user, audiences: [...result.audiences] } : { user };
        }
        return result;
      };
      if (cached) return consume(cached);
      return review(token, audiences, key).then(consume);
    },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's name for a JSON value's type in an unmarshal error. */
function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/**
 * Where status fails to decode as authentication/v1 TokenReviewStatus, in Go's words (null is a
 * zero value, as in Go); undefined when it decodes.
 */
function decodeError(status: unknown): string | undefined {
  const wrong = (v: unknown, field: string, type: string) => `json: cannot unmarshal ${jsonTypeName(v)} into Go struct field ${field} of type ${type}`;
  const field = (v: unknown, path: string, type: 'string' | 'bool' | '[]string'): string | undefined => {
    if (v === null || v === undefined) return undefined;
    if (type === 'string') return typeof v === 'string' ? undefined : wrong(v, path, 'string');
    if (type === 'bool') return typeof v === 'boolean' ? undefined : wrong(v, path, 'bool');
    if (!Array.isArray(v)) return wrong(v, path, '[]string');
    const bad = v.find((item) => item !== null && typeof item !== 'string');
    return bad === undefined ? undefined : wrong(bad, path, 'string');
  };
  if (status === null || status === undefined) return undefined;
  if (!isObject(status)) return wrong(status, 'TokenReview.status', 'v1.TokenReviewStatus');
  const user = status.user;
  const errs = [
    field(status.authenticated, 'TokenReviewStatus.status.authenticated', 'bool'),
    field(status.audiences, 'TokenReviewStatus.status.audiences', '[]string'),
    field(status.error, 'TokenReviewStatus.status.error', 'string'),
  ];
  if (user !== null && user !== undefined) {
    if (!isObject(user)) return wrong(user, 'TokenReviewStatus.status.user', 'v1.UserInfo');
    errs.push(field(user.username, 'UserInfo.status.user.username', 'string'), field(user.uid, 'UserInfo.status.user.uid', 'string'), field(user.groups, 'UserInfo.status.user.groups', '[]string'));
    const extra = user.extra;
    if (extra !== null && extra !== undefined) {
      if (!isObject(extra)) return wrong(extra, 'UserInfo.status.user.extra', 'map[string]v1.ExtraValue');
      for (const values of Object.values(extra)) errs.push(field(values, 'UserInfo.status.user.extra', '[]string'));
    }
  }
  return errs.find((e) => e !== undefined);
}

function resultOf(status: TokenReviewStatus, audiences: readonly string[] | undefined): AuthenticationResult {
  if (status.authenticated !== true) return { error: status.error ? `token webhook: ${status.error}` : 'invalid bearer token' };
  // kube: the token is valid for the audiences asked about that the webhook answered for (all
  // of them when it names none); none of them: the webhook did not authenticate it for us.
  let valid: string[] | undefined;
  if (audiences?.length) {
    const answered = Array.isArray(status.audiences) && status.audiences.length ? status.audiences : audiences;
    valid = audiences.filter((a) => answered.includes(a));
    if (valid.length === 0) return { error: 'token webhook: token audiences do not intersect the server\'s audiences' };
  }
  const u = status.user ?? {};
  if (!u.username) return { error: 'token webhook: authenticated without a username' };
  const user: UserInfo = { username: u.username, groups: Array.isArray(u.groups) ? u.groups.filter((g) => typeof g === 'string') : [] };
  if (u.uid) user.uid = u.uid;
  if (u.extra && Object.keys(u.extra).length > 0) {
    // A null list is Go's nil ExtraValue: the key with no values.
    const extra: Record<string, string[]> = {};
    for (const [key, values] of Object.entries(u.extra)) setOwnValue(extra, key, Array.isArray(values) ? [...values] : []);
    user.extra = extra;
  }
  return valid ? { user, audiences: valid } : { user };
}

/** A hash of the audiences and the token (never the token itself). */
function cacheKey(token: string, audiences: readonly string[] | undefined): string {
  return createHash('sha256').update(JSON.stringify([audiences ?? [], token])).digest('base64');
}
