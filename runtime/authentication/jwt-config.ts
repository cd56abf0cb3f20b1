/**
 * JWT authenticator configuration, as kube-apiserver takes it: the structured
 * `AuthenticationConfiguration` (apiserver.config.k8s.io/v1beta1 or v1alpha1, --authentication-config)
 * or the classic --oidc-* flags, which describe one issuer. Both become JWTAuthenticatorConfig,
 * checked with kube's rules and field paths (apiserver/pkg/apis/apiserver/validation), so a bad
 * file stops start-up with every problem listed.
 */
import { readFileSync } from 'node:fs';
import { yaml } from '../api/yaml.js';
import { SUPPORTED_ALGORITHMS } from './jwt.js';

export interface ClaimOrExpression {
  claim?: string;
  expression?: string;
}

export interface JWTAuthenticatorConfig {
  issuer: {
    url: string;
    discoveryURL?: string;
    /** PEM bundle trusted for discovery and JWKS (the system's roots when absent). */
    certificateAuthority?: string;
    audiences: string[];
    audienceMatchPolicy?: 'MatchAny';
  };
  claimValidationRules?: { claim?: string; requiredValue?: string; expression?: string; message?: string }[];
  claimMappings: {
    username: ClaimOrExpression & { prefix?: string };
    groups?: ClaimOrExpression & { prefix?: string };
    uid?: ClaimOrExpression;
    extra?: { key: string; valueExpression: string }[];
  };
  userValidationRules?: { expression: string; message?: string }[];
  /** Accepted signature algorithms; the classic flags default to RS256, the structured form allows all. */
  signingAlgs?: string[];
}

const API_VERSIONS = ['apiserver.config.k8s.io/v1beta1', 'apiserver.config.k8s.io/v1alpha1', 'apiserver.config.k8s.io/v1'];

/** Reads --authentication-config; throws one Error listing every problem. */
export function loadAuthenticationConfig(file: string): JWTAuthenticatorConfig[] {
  let doc: Record<string, unknown>;
  try {
    doc = (yaml().parse(readFileSync(file, 'utf8')) ?? {}) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`--authentication-config ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  const errors: string[] = [];
  if (doc.kind !== 'AuthenticationConfiguration' || !API_VERSIONS.includes(String(doc.apiVersion))) {
    errors.push(`apiVersion/kind: Invalid value: "${String(doc.apiVersion)}, Kind=${String(doc.kind)}": expected apiserver.config.k8s.io/v1beta1 AuthenticationConfiguration`);
  }
  const jwt = (Array.isArray(doc.jwt) ? doc.jwt : doc.jwt === undefined ? [] : (errors.push('jwt: Invalid value: must be a list'), [])) as JWTAuthenticatorConfig[];
  errors.push(...validateJWTAuthenticators(jwt));
  if (errors.length > 0) throw new Error(`--authentication-config ${file}: ${errors.join('; ')}`);
  return jwt;
}

export interface OIDCFlags {
  issuerURL?: string;
  clientID?: string;
  usernameClaim?: string;
  usernamePrefix?: string;
  groupsClaim?: string;
  groupsPrefix?: string;
  requiredClaims?: Record<string, string>;
  caFile?: string;
  signingAlgs?: string[];
}

/**
 * The one issuer the --oidc-* flags describe (undefined when --oidc-issuer-url is not set), with
 * kube's defaults: username claim `sub`, and for any claim but `email` a username prefix of
 * `<issuer>#` unless --oidc-username-prefix is given (`-` turns prefixing off).
 */
export function oidcFlagsConfig(flags: OIDCFlags): JWTAuthenticatorConfig | undefined {
  if (!flags.issuerURL) {
    const stray = Object.entries(flags).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0) && !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0));
    if (stray.length > 0) throw new Error('--oidc-issuer-url is required when other --oidc-* flags are set');
    return undefined;
  }
  if (!flags.clientID) throw new Error('oidc-client-id is required when oidc-issuer-url is set');
  const claim = flags.usernameClaim ?? 'sub';
  let prefix = flags.usernamePrefix;
  if (prefix === undefined) prefix = claim === 'email' ? '' : `${flags.issuerURL}#`;
  if (prefix === '-') prefix = '';
  let ca: string | undefined;
  if (flags.caFile) {
    try {
      ca = readFileSync(flags.caFile, 'utf8');
    } catch (err) {
      throw new Error(`--oidc-ca-file ${flags.caFile}: ${(err as Error).message}`);
    }
  }
  const config: JWTAuthenticatorConfig = {
    issuer: { url: flags.issuerURL, audiences: [flags.clientID], certificateAuthority: ca },
    claimMappings: {
      username: { claim, prefix },
      ...(flags.groupsClaim ? { groups: { claim: flags.groupsClaim, prefix: flags.groupsPrefix ?? '' } } : {}),
    },
    claimValidationRules: Object.entries(flags.requiredClaims ?? {}).map(([claim, requiredValue]) => ({ claim, requiredValue })),
    signingAlgs: flags.signingAlgs?.length ? flags.signingAlgs : ['RS256'],
  };
  const errors = validateJWTAuthenticators([config]).map((e) => e.replace(/^jwt\[0\]\./, ''));
  if (errors.length > 0) throw new Error(`--oidc-* flags: ${errors.join('; ')}`);
  return config;
}

/** kube's ValidateAuthenticationConfiguration for the jwt list: every problem, with its field path. */
export function validateJWTAuthenticators(list: JWTAuthenticatorConfig[]): string[] {
  const errors: string[] = [];
  const issuers = new Set<string>();
  list.forEach((a, i) => {
    const at = `jwt[${i}]`;
    const issuer = a?.issuer;
    if (!issuer || typeof issuer.url !== 'string' || issuer.url === '') errors.push(`${at}.issuer.url: Required value`);
    else {
      errors.push(...httpsURLProblems(`${at}.issuer.url`, issuer.url));
      if (issuers.has(issuer.url)) errors.push(`${at}.issuer.url: Duplicate value: ${JSON.stringify(issuer.url)}`);
      issuers.add(issuer.url);
      if (issuer.discoveryURL !== undefined) {
        errors.push(...httpsURLProblems(`${at}.issuer.discoveryURL`, issuer.discoveryURL));
        if (issuer.discoveryURL === issuer.url) errors.push(`${at}.issuer.discoveryURL: Invalid value: ${JSON.stringify(issuer.discoveryURL)}: discoveryURL must be different from URL`);
      }
    }
    const audiences = issuer?.audiences;
    if (!Array.isArray(audiences) || audiences.length === 0) errors.push(`${at}.issuer.audiences: Required value: at least one ${at}.issuer.audiences is required`);
    else {
      if (new Set(audiences).size !== audiences.length) errors.push(`${at}.issuer.audiences: Duplicate value`);
      if (audiences.length > 1 && issuer.audienceMatchPolicy !== 'MatchAny') {
        errors.push(`${at}.issuer.audienceMatchPolicy: Invalid value: ${JSON.stringify(issuer.audienceMatchPolicy ?? '')}: audienceMatchPolicy must be MatchAny for multiple audiences`);
      }
    }
    const claims = new Set<string>();
    (a?.claimValidationRules ?? []).forEach((r, j) => {
      const path = `${at}.claimValidationRules[${j}]`;
      if (r.claim !== undefined && r.expression !== undefined) errors.push(`${path}: Invalid value: claim and expression can't both be set`);
      else if (r.claim === undefined && r.expression === undefined) errors.push(`${path}: Required value: claim or expression is required`);
      if (r.claim !== undefined) {
        if (claims.has(r.claim)) errors.push(`${path}.claim: Duplicate value: ${JSON.stringify(r.claim)}`);
        claims.add(r.claim);
        if (r.message !== undefined) errors.push(`${path}.message: Invalid value: message can't be set when claim is set`);
      }
      if (r.expression !== undefined && r.requiredValue !== undefined) errors.push(`${path}.requiredValue: Invalid value: requiredValue can't be set when expression is set`);
    });
    const m = a?.claimMappings;
    const username = m?.username;
    if (!username || (username.claim === undefined && username.expression === undefined)) errors.push(`${at}.claimMappings.username: Required value: claim or expression is required`);
    else if (username.claim !== undefined && username.expression !== undefined) errors.push(`${at}.claimMappings.username: Invalid value: claim and expression can't both be set`);
    else if (username.claim !== undefined && username.prefix === undefined) {
      errors.push(`${at}.claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing`);
    } else if (username.expression !== undefined && username.prefix !== undefined) errors.push(`${at}.claimMappings.username.prefix: Invalid value: prefix can't be set when expression is set`);
    for (const field of ['groups', 'uid'] as const) {
      const v = m?.[field] as (ClaimOrExpression & { prefix?: string }) | undefined;
      if (!v) continue;
      if (v.claim !== undefined && v.expression !== undefined) errors.push(`${at}.claimMappings.${field}: Invalid value: claim and expression can't both be set`);
      if (v.expression !== undefined && v.prefix !== undefined) errors.push(`${at}.claimMappings.${field}.prefix: Invalid value: prefix can't be set when expression is set`);
    }
    (m?.extra ?? []).forEach((e, j) => {
      const path = `${at}.claimMappings.extra[${j}]`;
      if (!e.key) errors.push(`${path}.key: Required value`);
      else if (e.key !== e.key.toLowerCase() || !/^[a-z0-9.-]+\.[a-z]{2,}\/\S+$/.test(e.key)) errors.push(`${path}.key: Invalid value: ${JSON.stringify(e.key)}: must be a domain-prefix path in lower case (such as "acme.io/foo")`);
      else if (isKubernetesDomainPrefix(e.key)) errors.push(`${path}.key: Invalid value: ${JSON.stringify(e.key)}: k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use`);
      if (!e.valueExpression) errors.push(`${path}.valueExpression: Required value: valueExpression is required`);
    });
    // kube: a username taken from claims.email by an expression must be checked against
    // claims.email_verified somewhere (the username expression, an extra mapping or a claim
    // validation rule); else an unverified address at the issuer names any user.
    const extraAndRules = [...(m?.extra ?? []).map((e) => e.valueExpression), ...(a?.claimValidationRules ?? []).map((r) => r.expression)];
    if (typeof username?.expression === 'string' && selects(username.expression, 'email') && ![username.expression, ...extraAndRules].some((x) => typeof x === 'string' && selects(x, 'email_verified'))) {
      errors.push(
        `${at}.claimMappings.username.expression: Invalid value: ${JSON.stringify(username.expression)}: claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression`,
      );
    }
    (a?.userValidationRules ?? []).forEach((r, j) => {
      if (!r.expression) errors.push(`${at}.userValidationRules[${j}].expression: Required value: expression is required`);
    });
    for (const alg of a?.signingAlgs ?? []) {
      if (!(SUPPORTED_ALGORITHMS as readonly string[]).includes(alg)) errors.push(`oidc-signing-algs: Invalid value: ${JSON.stringify(alg)}: not a supported asymmetric algorithm`);
    }
  });
  return errors;
}

/** Whether a CEL expression selects `claims.<field>` (or `claims.?<field>`), as kube's hasSelectExp. */
function selects(expression: string, field: string): boolean {
  return new RegExp(`\\bclaims\\s*\\.\\s*\\??\\s*${field}(?![A-Za-z0-9_])`).test(expression);
}

function isKubernetesDomainPrefix(key: string): boolean {
  const domain = key.includes('/') ? key.slice(0, key.indexOf('/')) : '';
  return domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io') || domain === 'k8s.io' || domain.endsWith('.k8s.io');
}

/**
 * kube's disallowedIssuers: no JWT issuer may be the service account issuer, else a
 * ServiceAccount token the service account authenticator refuses (its account deleted, its bound
 * object gone) would be tried again, and accepted, as an OIDC token.
 */
export function disallowedIssuerProblems(list: readonly JWTAuthenticatorConfig[], disallowed: readonly string[]): string[] {
  return list.flatMap((a, i) =>
    disallowed.includes(a.issuer.url) ? [`jwt[${i}].issuer.url: Invalid value: ${JSON.stringify(a.issuer.url)}: URL must not overlap with disallowed issuers: [${[...disallowed].sort().join(' ')}]`] : [],
  );
}

function httpsURLProblems(path: string, value: string): string[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [`${path}: Invalid value: ${JSON.stringify(value)}: must be a valid URL`];
  }
  if (url.protocol !== 'https:') return [`${path}: Invalid value: ${JSON.stringify(value)}: URL scheme must be https`];
  if (url.username || url.password) return [`${path}: Invalid value: ${JSON.stringify(value)}: URL must not contain a username or password`];
  if (url.search || url.hash) return [`${path}: Invalid value: ${JSON.stringify(value)}: URL must not contain a query or fragment`];
  return [];
}
