/**
 * ServiceAccount tokens in the server (kube's TokenREST, the service account authenticator and
 * the service account issuer discovery): one signing key from the data dir, an authenticator the
 * filter chain uses, the TokenRequest REST behind `serviceaccounts/<name>/token`, and the OIDC
 * documents `/.well-known/openid-configuration` and `/openid/v1/jwks` (kube serves them to
 * `system:serviceaccounts` through the bootstrap role system:service-account-issuer-discovery).
 */
import type { KubeObject } from '../api/meta.js';
import { isNotFound, newBadRequest, newConflict, newInvalid, statusError } from '../api/status.js';
import {
  jwks,
  loadOrCreateServiceAccountKey,
  serviceAccountAuthenticator,
  signServiceAccountToken,
  type ServiceAccountAuthenticator,
  type ServiceAccountKey,
} from '../authentication/index.js';
import type { APIRequest, APIResponse, Creater } from '../endpoints/handler.js';
import type { Store } from '../registry/store.js';
import type { DelegationResult, DelegationTarget } from '../server/delegation.js';
import type { IncomingAPIRequest, ResolvedRequest } from '../server/handler.js';
import type { APIInstaller } from '../server/installer.js';

/** kube's TokenRequestSpec default (SetDefaults_TokenRequestSpec) and bounds. */
export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;
const MIN_TOKEN_EXPIRATION_SECONDS = 600;
const MAX_TOKEN_EXPIRATION_SECONDS = 2 ** 32;

export const OIDC_DISCOVERY_PATH = '/.well-known/openid-configuration';
export const OIDC_JWKS_PATH = '/openid/v1/jwks';

export interface ServiceAccountTokenOptions {
  /** Where the key lives (`<dataDir>/pki/service-account/`); undefined keeps it in memory. */
  dataDir?: string;
  /** kube's --service-account-issuer. */
  issuer: string;
  /** kube's --api-audiences; default [issuer]. */
  audiences?: string[];
}

export interface ServiceAccountTokens {
  key(): ServiceAccountKey;
  issuer: string;
  audiences: string[];
  authenticator: ServiceAccountAuthenticator;
  /** Serves the TokenRequest subresource and binds the authenticator's lookups to the stores. */
  install(installer: APIInstaller): void;
  /** The OIDC discovery documents, as a server of the chain. */
  issuerDiscovery: DelegationTarget;
}

async function getOrUndefined(store: Store | undefined, namespace: string, name: string): Promise<KubeObject | undefined> {
  if (!store) return undefined;
  try {
    return await store.get(namespace, name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

interface TokenRequestSpec {
  audiences?: string[];
  expirationSeconds?: number;
  boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string };
}

function validateSpec(spec: TokenRequestSpec, name: string): void {
  const seconds = spec.expirationSeconds;
  const causes = [];
  if (typeof seconds !== 'number' || !Number.isInteger(seconds)) causes.push({ reason: 'FieldValueInvalid', field: 'spec.expirationSeconds', message: `Invalid value: ${JSON.stringify(seconds)}: must be an integer` });
  else if (seconds < MIN_TOKEN_EXPIRATION_SECONDS) causes.push({ reason: 'FieldValueInvalid', field: 'spec.expirationSeconds', message: `Invalid value: ${seconds}: may not specify a duration less than 10 minutes` });
  else if (seconds > MAX_TOKEN_EXPIRATION_SECONDS) causes.push({ reason: 'FieldValueInvalid', field: 'spec.expirationSeconds', message: `Invalid value: ${seconds}: may not specify a duration larger than 2^32 seconds` });
  if (spec.audiences !== undefined && (!Array.isArray(spec.audiences) || spec.audiences.some((a) => typeof a !== 'string'))) {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.audiences', message: 'Invalid value: "array": must be a list of strings' });
  }
  if (causes.length) throw newInvalid({ group: 'authentication.k8s.io', kind: 'TokenRequest' }, name, causes);
}

/**
 * kube's TokenREST.Create: a name or namespace in the body must be the URL's (422), never another
 * service account's token request answered as if it named this one.
 */
function checkNames(obj: KubeObject, namespace: string, name: string): void {
  const meta = (obj.metadata ?? {}) as { name?: unknown; namespace?: unknown };
  const mismatch = (field: 'name' | 'namespace', value: unknown, want: string) =>
    newInvalid({ group: 'authentication.k8s.io', kind: 'TokenRequest' }, name, [
      { reason: 'FieldValueInvalid', field: `metadata.${field}`, message: `Invalid value: ${JSON.stringify(value)}: must match the service account ${field} if specified` },
    ]);
  if (typeof meta.name === 'string' && meta.name !== '' && meta.name !== name) throw mismatch('name', meta.name, name);
  if (typeof meta.namespace === 'string' && meta.namespace !== '' && meta.namespace !== namespace) throw mismatch('namespace', meta.namespace, namespace);
}

/** kube's TokenREST.Create, for kgen's served kinds: binding to a Secret (kgen serves no Pods or Nodes). */
function tokenRequestCreater(tokens: Omit<ServiceAccountTokens, 'install' | 'issuerDiscovery'>, serviceAccounts: Store, secrets: Store | undefined): Creater {
  return async (obj: KubeObject, req: APIRequest) => {
    const { namespace, name } = req.info;
    checkNames(obj, namespace, name);
    const spec: TokenRequestSpec = { ...((obj.spec ?? {}) as TokenRequestSpec) };
    spec.expirationSeconds ??= DEFAULT_TOKEN_EXPIRATION_SECONDS;
    validateSpec(spec, name);
    const sa = await serviceAccounts.get(namespace, name);
    if (sa.metadata.deletionTimestamp) throw statusError('Forbidden', `service account ${namespace}/${name} is being deleted`);
    let bound: { kind: string; name: string; uid: string } | undefined;
    const ref = spec.boundObjectRef;
    if (ref) {
      const kind = ref.kind ?? '';
      const apiVersion = ref.apiVersion ?? '';
      if (kind !== 'Secret' || (apiVersion !== 'v1' && apiVersion !== '') || !secrets) {
        const gv = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
        throw newBadRequest(`cannot bind token for object of type ${gv}, Kind=${kind}`);
      }
      const secret = await secrets.get(namespace, ref.name ?? '');
      if (ref.uid && ref.uid !== secret.metadata.uid) {
        throw newConflict({ group: '', resource: 'Secret' }, ref.name ?? '', `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
      }
      bound = { kind, name: secret.metadata.name!, uid: secret.metadata.uid! };
      spec.boundObjectRef = { kind, apiVersion: 'v1', name: bound.name, uid: bound.uid };
    }
    const audiences = spec.audiences?.length ? spec.audiences : tokens.audiences;
    const { token, claims } = signServiceAccountToken(tokens.key(), {
      issuer: tokens.issuer,
      audiences,
      namespace,
      serviceAccount: { name, uid: sa.metadata.uid! },
      bound,
      expirationSeconds: spec.expirationSeconds,
    });
    return {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name, namespace, creationTimestamp: new Date(claims.iat * 1000).toISOString().replace(/\.\d+Z$/, 'Z') },
      spec: { ...spec, audiences },
      status: { token, expirationTimestamp: new Date(claims.exp * 1000).toISOString().replace(/\.\d+Z$/, 'Z') },
    };
  };
}

function jsonResponse(body: unknown, contentType: string): APIResponse {
  return { kind: 'object', code: 200, contentType, headers: { 'Cache-Control': 'public, max-age=3600' }, payload: JSON.stringify(body) };
}

/** kube's serviceaccount.OpenIDMetadata: the issuer and where its keys are. */
function issuerDiscovery(key: () => ServiceAccountKey, issuer: string): DelegationTarget {
  const configuration = {
    issuer,
    jwks_uri: `${issuer.replace(/\/$/, '')}${OIDC_JWKS_PATH}`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
  };
  let keys: ReturnType<typeof jwks> | undefined;
  return {
    name: 'service-account-issuer-discovery',
    serve(incoming: IncomingAPIRequest, resolved: ResolvedRequest): DelegationResult {
      if (resolved.info?.isResourceRequest || incoming.method !== 'GET') return undefined;
      const path = incoming.url.split('?')[0]!.replace(/\/$/, '');
      if (path === OIDC_DISCOVERY_PATH) return jsonResponse(configuration, 'application/json');
      if (path === OIDC_JWKS_PATH) return jsonResponse((keys ??= jwks(key())), 'application/jwk-set+json');
      return undefined;
    },
    groupVersions: () => [],
    onChange: () => () => undefined,
  };
}

export function newServiceAccountTokens(opts: ServiceAccountTokenOptions): ServiceAccountTokens {
  // A data dir's key is made (or read) now, at start; an in-memory key only when first needed.
  let loaded = opts.dataDir === undefined ? undefined : loadOrCreateServiceAccountKey(opts.dataDir);
  const key = () => (loaded ??= loadOrCreateServiceAccountKey());
  const audiences = opts.audiences?.length ? opts.audiences : [opts.issuer];
  const authenticator = serviceAccountAuthenticator({ key, issuer: opts.issuer, audiences });
  const tokens = { key, issuer: opts.issuer, audiences, authenticator };
  return {
    ...tokens,
    issuerDiscovery: issuerDiscovery(key, opts.issuer),
    install(installer) {
      const serviceAccounts = installer.lookup('', 'v1', 'serviceaccounts');
      const secrets = installer.lookup('', 'v1', 'secrets')?.store;
      if (!serviceAccounts) return;
      serviceAccounts.tokenRequest = tokenRequestCreater(tokens, serviceAccounts.store, secrets);
      authenticator.bind({
        getServiceAccount: (namespace, name) => getOrUndefined(serviceAccounts.store, namespace, name),
        getSecret: (namespace, name) => getOrUndefined(secrets, namespace, name),
      });
    },
  };
}
