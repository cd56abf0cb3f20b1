/**
 * JWT (OIDC) token authentication, as kube-apiserver's structured JWT authenticators
 * (plugin/pkg/authenticator/token/oidc) do it, one per configured issuer:
 *
 *   1. A bearer token that is a JWT whose `iss` is a configured issuer is this authenticator's;
 *      any other token is left to the next authenticator.
 *   2. Its signature must verify with a key of the issuer's JWK set (fetched again when the token
 *      names an unknown key), with an allowed algorithm.
 *   3. `exp` is required and must be in the future; `nbf` (5 minutes' leeway, as go-oidc); `aud`
 *      must hold one of the configured audiences.
 *   4. claimValidationRules: a claim with a required value, or a CEL expression over `claims`.
 *   5. claimMappings build the user: username (a claim with a prefix, or an expression; the
 *      `email` claim needs `email_verified` true when present), groups, uid, extra.
 *   6. userValidationRules: CEL expressions over `user`.
 *
 * Failures are authentication errors (401) whose text matches kube's log lines.
 */
import type { UserInfo } from '../api/auth.js';
import type { IncomingAPIRequest } from '../api/request.js';
import { celEnvironmentWithVariables, evaluationProgram, literalErrors } from '../validation/cel-env.js';
import { toCelValue } from '../validation/cel-value.js';
import type { AuthenticationResult, RequestAuthenticator } from './authenticator.js';
import type { JWTAuthenticatorConfig } from './jwt-config.js';
import { decodeJWT, SUPPORTED_ALGORITHMS, verifyJWS, type DecodedJWT } from './jwt.js';
import { RemoteKeySet } from './oidc-keys.js';
import { bearerToken } from './tokenfile.js';
import { VerifiedTokens } from './verified-tokens.js';

const NBF_LEEWAY_S = 5 * 60;

type Program = ((context?: Record<string, unknown>) => unknown) & { check(): { valid: boolean; error?: unknown } };

interface Issuer {
  config: JWTAuthenticatorConfig;
  keys: RemoteKeySet;
  algorithms: readonly string[];
  claimRules: { claim?: string; requiredValue?: string; expression?: string; program?: Program; message?: string }[];
  username: { claim?: string; prefix: string; program?: Program; expression?: string };
  groups?: { claim?: string; prefix: string; program?: Program; expression?: string };
  uid?: { claim?: string; program?: Program; expression?: string };
  extra: { key: string; program: Program; expression: string }[];
  userRules: { expression: string; program: Program; message?: string }[];
  /** Tokens whose signature verified under the key set held then (verified-tokens.ts). */
  verified: VerifiedTokens<typeof SIGNED>;
}

/** What a verified token's entry holds: the verdict alone (the claims are read per request). */
const SIGNED = Object.freeze({ signed: true as const });

export interface JWTAuthenticatorOptions {
  /** Seconds since the epoch; default the clock. */
  now?: () => number;
}

/** Compiles every expression now, so a configuration that does not compile stops start-up. */
export function jwtAuthenticator(configs: readonly JWTAuthenticatorConfig[], opts: JWTAuthenticatorOptions = {}): RequestAuthenticator {
  const now = opts.now ?? (() => Date.now() / 1000);
  const issuers = new Map<string, Issuer>();
  configs.forEach((config, i) => issuers.set(config.issuer.url, compileIssuer(config, i)));
  return {
    authenticate(request: IncomingAPIRequest) {
      const token = bearerToken(request);
      if (!token) return undefined;
      const jwt = decodeJWT(token);
      const issuer = jwt && typeof jwt.payload.iss === 'string' ? issuers.get(jwt.payload.iss) : undefined;
      if (!jwt || !issuer) return undefined;
      return verifyToken(issuer, token, jwt, now()).then((result) => {
        if (result && 'user' in result) delete request.headers.authorization;
        return result;
      });
    },
  };
}

function compileIssuer(config: JWTAuthenticatorConfig, i: number): Issuer {
  const at = `jwt[${i}]`;
  const claims = (expression: string, path: string) => compile(expression, 'claims', `${at}.${path}`);
  const m = config.claimMappings;
  return {
    config,
    keys: new RemoteKeySet({ issuerURL: config.issuer.url, discoveryURL: config.issuer.discoveryURL, certificateAuthority: config.issuer.certificateAuthority }),
    algorithms: config.signingAlgs ?? SUPPORTED_ALGORITHMS,
    claimRules: (config.claimValidationRules ?? []).map((r, j) => ({ ...r, program: r.expression !== undefined ? claims(r.expression, `claimValidationRules[${j}].expression`) : undefined })),
    username: { claim: m.username.claim, prefix: m.username.prefix ?? '', expression: m.username.expression, program: m.username.expression !== undefined ? claims(m.username.expression, 'claimMappings.username.expression') : undefined },
    groups: m.groups && { claim: m.groups.claim, prefix: m.groups.prefix ?? '', expression: m.groups.expression, program: m.groups.expression !== undefined ? claims(m.groups.expression, 'claimMappings.groups.expression') : undefined },
    uid: m.uid && { claim: m.uid.claim, expression: m.uid.expression, program: m.uid.expression !== undefined ? claims(m.uid.expression, 'claimMappings.uid.expression') : undefined },
    extra: (m.extra ?? []).map((e, j) => ({ key: e.key, expression: e.valueExpression, program: claims(e.valueExpression, `claimMappings.extra[${j}].valueExpression`) })),
    userRules: (config.userValidationRules ?? []).map((r, j) => ({ ...r, program: compile(r.expression, 'user', `${at}.userValidationRules[${j}].expression`) })),
    verified: new VerifiedTokens(),
  };
}

function compile(expression: string, variable: 'claims' | 'user', path: string): Program {
  let program: Program;
  const env = celEnvironmentWithVariables([variable]);
  try {
    program = env.parse(expression) as unknown as Program;
  } catch (err) {
    throw new Error(`${path}: Invalid value: ${JSON.stringify(expression)}: compilation failed: ${(err as Error).message.split('\n')[0]}`);
  }
  const checked = program.check();
  if (!checked.valid) throw new Error(`${path}: Invalid value: ${JSON.stringify(expression)}: compilation failed: ${String((checked.error as Error | undefined)?.message ?? checked.error).split('\n')[0]}`);
  // kube's base environment runs cel-go's AST validators here too (mixed list/map literals,
  // literal arguments of duration(), timestamp() and matches() that do not convert or compile).
  const literal = literalErrors((program as unknown as { ast: never }).ast, expression, true);
  if (literal) {
    const before = expression.slice(0, literal.pos);
    const at = `<input>:${before.split('\n').length}:${literal.pos - (before.lastIndexOf('\n') + 1) + 1}`;
    throw new Error(`${path}: Invalid value: ${JSON.stringify(expression)}: compilation failed: ERROR: ${at}: ${literal.message}`);
  }
  return evaluationProgram(expression, program as never, env) as unknown as Program;
}

async function verifyToken(issuer: Issuer, token: string, jwt: DecodedJWT, now: number): Promise<AuthenticationResult> {
  const fail = (why: string): AuthenticationResult => ({ error: `oidc: verify token: ${why}` });
  let signed: boolean;
  try {
    signed = await verifySignature(issuer, token, jwt);
  } catch (err) {
    return { error: `oidc: authenticator for issuer ${JSON.stringify(issuer.config.issuer.url)} is not initialized: ${(err as Error).message}` };
  }
  if (!signed) return fail('failed to verify signature: failed to verify id token signature');
  const claims = jwt.payload;
  const times: Partial<Record<'exp' | 'nbf' | 'iat', number>> = {};
  for (const name of ['exp', 'nbf', 'iat'] as const) {
    const value = claims[name];
    if (value === undefined || value === null) continue;
    const seconds = jsonTime(value);
    if (seconds === undefined) return { error: `oidc: failed to unmarshal claims: ${JSON.stringify(name)} is not a time in seconds: ${JSON.stringify(value) ?? String(value)}` };
    times[name] = seconds;
  }
  if (times.exp === undefined) return fail('oidc: token has no expiry');
  if (now >= times.exp) return fail(`oidc: token is expired (Token Expiry: ${timeText(times.exp)})`);
  if (times.nbf !== undefined && now + NBF_LEEWAY_S < times.nbf) {
    return fail(`oidc: current time ${timeText(now)} before the nbf (not before) time: ${timeText(times.nbf)}`);
  }
  const audiences = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
  if (!issuer.config.issuer.audiences.some((a) => audiences.includes(a))) {
    return fail(`oidc: expected audience in ${JSON.stringify(issuer.config.issuer.audiences)} got ${JSON.stringify(audiences)}`);
  }
  try {
    const celClaims = toCelValue(undefined, claims);
    checkClaimRules(issuer, claims, celClaims);
    const user = mapUser(issuer, claims, celClaims);
    checkUserRules(issuer, user);
    return { user };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/**
 * A NumericDate claim as go-oidc's jsonTime reads it (a json.Number, so a number or a string
 * holding one), in seconds; undefined when it is not one or is out of float64's range: JSON's
 * 1e400 parses to Infinity here, which Go refuses (ParseFloat's range error) and which would
 * otherwise be an `exp` that never comes; undefined too beyond int64 seconds (below).
 */
function jsonTime(value: unknown): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value)) n = Number(value);
  else return undefined;
  // Go converts with int64(f): beyond int64 the result depends on the CPU (amd64: the minimum,
  // an expired token; arm64: saturated, one that never expires). Refused here: fail closed.
  return Number.isFinite(n) && Math.abs(n) < INT64_SECONDS ? n : undefined;
}

const INT64_SECONDS = 2 ** 63;

/**
 * A claim's time for a message: ISO 8601 where a JavaScript Date holds it (±8.64e12 s), else the
 * seconds (toISOString would throw, a 500 where the answer is a 401).
 */
function timeText(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? `${seconds} seconds since the epoch` : date.toISOString();
}

/** With the key the header names (fetching the set again when it is unknown), else any key. */
/**
 * Whether a key of the issuer's set signed the token. A token that verified under the set held now
 * is remembered with that set (the array the key set holds until it fetches again), so its later
 * requests skip the signature check; once the set is fetched again (rotation) it verifies again,
 * and a token of a withdrawn key is refused as before.
 */
async function verifySignature(issuer: Issuer, token: string, jwt: DecodedJWT): Promise<boolean> {
  const attempt = (keys: { kid?: string; key: import('node:crypto').KeyObject }[]) => {
    const candidates = jwt.header.kid !== undefined ? keys.filter((k) => k.kid === jwt.header.kid) : keys;
    return { known: candidates.length > 0, ok: candidates.some((k) => verifyJWS(jwt, k.key, issuer.algorithms)) };
  };
  const held = await issuer.keys.current();
  let checked: { known: boolean; ok: boolean } | undefined;
  if (issuer.verified.claims(token, held, () => ((checked = attempt(held)).ok ? SIGNED : undefined))) return true;
  const first = checked ?? attempt(held);
  if (first.ok || (first.known && jwt.header.kid !== undefined)) return first.ok;
  return attempt(await issuer.keys.refreshForUnknownKey()).ok;
}

function evaluate(program: Program, context: Record<string, unknown>, what: string): unknown {
  try {
    return program(context);
  } catch (err) {
    throw new Error(`oidc: error evaluating ${what}: ${(err as Error).message}`);
  }
}

function checkClaimRules(issuer: Issuer, claims: Record<string, unknown>, celClaims: unknown): void {
  for (const rule of issuer.claimRules) {
    if (rule.claim !== undefined) {
      const value = claims[rule.claim];
      if (value === undefined) throw new Error(`oidc: required claim ${rule.claim} not present`);
      if (typeof value !== 'string') throw new Error(`oidc: claim ${rule.claim} is not a string, found ${JSON.stringify(value)}`);
      if (value !== rule.requiredValue) throw new Error(`oidc: required claim ${rule.claim} value does not match. Got = ${value}, want = ${rule.requiredValue}`);
    } else if (rule.program) {
      const ok = evaluate(rule.program, { claims: celClaims }, `claim validation expression ${JSON.stringify(rule.expression)}`);
      if (ok !== true) throw new Error(`oidc: error evaluating claim validation expression: validation expression ${JSON.stringify(rule.expression)} failed: ${rule.message ?? ''}`.trimEnd());
    }
  }
}

function mapUser(issuer: Issuer, claims: Record<string, unknown>, celClaims: unknown): UserInfo {
  const user: UserInfo = { username: username(issuer, claims, celClaims), groups: [] };
  if (issuer.groups) {
    const raw = issuer.groups.program ? evaluate(issuer.groups.program, { claims: celClaims }, 'groups expression') : claims[issuer.groups.claim!];
    const groups = raw === undefined || raw === null ? [] : typeof raw === 'string' ? [raw] : Array.isArray(raw) && raw.every((g) => typeof g === 'string') ? raw : null;
    if (groups === null) throw new Error(`oidc: groups claim ${JSON.stringify(issuer.groups.claim ?? issuer.groups.expression)} is neither a string nor a list of strings`);
    user.groups = groups.map((g) => `${issuer.groups!.prefix}${g}`);
  }
  if (issuer.uid) {
    const uid = issuer.uid.program ? evaluate(issuer.uid.program, { claims: celClaims }, 'uid expression') : claims[issuer.uid.claim!];
    if (uid !== undefined && typeof uid !== 'string') throw new Error('oidc: uid must be a string');
    if (uid) user.uid = uid;
  }
  for (const e of issuer.extra) {
    const value = evaluate(e.program, { claims: celClaims }, `extra mapping ${JSON.stringify(e.key)}`);
    const values = value === undefined || value === null ? [] : typeof value === 'string' ? (value === '' ? [] : [value]) : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
    if (values === null) throw new Error(`oidc: extra mapping ${JSON.stringify(e.key)}: value must be a string or a list of strings`);
    if (values.length > 0) (user.extra ??= {})[e.key] = values;
  }
  return user;
}

function username(issuer: Issuer, claims: Record<string, unknown>, celClaims: unknown): string {
  const u = issuer.username;
  if (u.program) {
    const value = evaluate(u.program, { claims: celClaims }, 'username expression');
    if (typeof value !== 'string') throw new Error('oidc: error evaluating username expression: result must be a string');
    if (value === '') throw new Error('oidc: empty username via CEL expression is not allowed');
    return value;
  }
  const value = claims[u.claim!];
  if (value === undefined) throw new Error(`oidc: parse username claims ${JSON.stringify(u.claim)}: claim not present`);
  if (typeof value !== 'string' || value === '') throw new Error(`oidc: parse username claims ${JSON.stringify(u.claim)}: claim must be a non-empty string`);
  if (u.claim === 'email' && claims.email_verified !== undefined && claims.email_verified !== true) throw new Error('oidc: email not verified');
  return `${u.prefix}${value}`;
}

function checkUserRules(issuer: Issuer, user: UserInfo): void {
  if (issuer.userRules.length === 0) return;
  const celUser = toCelValue(undefined, { username: user.username, uid: user.uid ?? '', groups: user.groups, extra: user.extra ?? {} });
  for (const rule of issuer.userRules) {
    const ok = evaluate(rule.program, { user: celUser }, `user validation expression ${JSON.stringify(rule.expression)}`);
    if (ok !== true) throw new Error(`oidc: error evaluating user info validation rule: validation expression ${JSON.stringify(rule.expression)} failed: ${rule.message ?? ''}`.trimEnd());
  }
}
