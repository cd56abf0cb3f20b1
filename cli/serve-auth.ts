/**
 * The authentication and authorization webhook flags of `kgen serve`, named and defaulted as
 * kube-apiserver's: --authentication-token-webhook-config-file (with -cache-ttl and -version),
 * --authorization-mode, and --authorization-webhook-config-file (with its two cache TTLs and
 * -version). The webhook files are kubeconfig files, as kube's.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { ServerOptions } from '../runtime/controlplane/server.js';
import { durationOption } from './duration.js';

export interface AuthFlags {
  authenticationConfig?: string;
  oidcIssuerUrl?: string;
  oidcClientId?: string;
  oidcUsernameClaim?: string;
  oidcUsernamePrefix?: string;
  oidcGroupsClaim?: string;
  oidcGroupsPrefix?: string;
  oidcRequiredClaim?: Record<string, string>;
  oidcCaFile?: string;
  oidcSigningAlgs?: string[];
  authenticationTokenWebhookConfigFile?: string;
  authenticationTokenWebhookCacheTtl: number;
  authenticationTokenWebhookVersion: string;
  authorizationMode: string;
  authorizationWebhookConfigFile?: string;
  authorizationWebhookCacheAuthorizedTtl: number;
  authorizationWebhookCacheUnauthorizedTtl: number;
  authorizationWebhookVersion: string;
}

function webhookVersion(value: string): string {
  if (value !== 'v1' && value !== 'v1beta1') throw new InvalidArgumentError('expected v1 or v1beta1');
  return value;
}

/** kube's mapStringString flag: key=value, comma-separated, repeatable. */
function keyValues(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  const out = { ...previous };
  for (const pair of value.split(',').filter((p) => p !== '')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new InvalidArgumentError(`${JSON.stringify(pair)} must be formatted as key=value`);
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

function list(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(',').filter((v) => v !== '')];
}

export function addAuthFlags(command: Command): Command {
  return command
    .option('--authentication-config <file>', 'AuthenticationConfiguration (apiserver.config.k8s.io/v1beta1): JWT issuers with claim mappings and CEL validation rules')
    .option('--oidc-issuer-url <url>', 'URL of the OpenID issuer (https); its ID tokens are accepted as bearer tokens')
    .option('--oidc-client-id <id>', 'the audience ID tokens must carry (required with --oidc-issuer-url)')
    .option('--oidc-username-claim <claim>', 'the claim naming the user (default: sub)')
    .option('--oidc-username-prefix <prefix>', "prefix of usernames (default: '<issuer-url>#' unless the claim is email; '-' for none)")
    .option('--oidc-groups-claim <claim>', 'the claim naming the groups (a string or a list of strings)')
    .option('--oidc-groups-prefix <prefix>', 'prefix of group names')
    .option('--oidc-required-claim <key=value>', 'a claim that must be present with this value (repeatable)', keyValues)
    .option('--oidc-ca-file <file>', "CA bundle (PEM) for the issuer's discovery and keys (default: the system's roots)")
    .option('--oidc-signing-algs <algs>', 'accepted JOSE signature algorithms (comma-separated) (default: RS256)', list)
    .option('--authentication-token-webhook-config-file <file>', 'kubeconfig file of a TokenReview webhook asked about bearer tokens no other authenticator knows')
    .option('--authentication-token-webhook-cache-ttl <duration>', 'how long webhook token answers are cached (Go duration) (default: 2m0s)', durationOption, 120_000)
    .option('--authentication-token-webhook-version <v>', 'TokenReview version sent to the webhook: v1 or v1beta1', webhookVersion, 'v1')
    .option('--authorization-mode <modes>', 'ordered comma list of RBAC, Webhook, AlwaysAllow, AlwaysDeny (system:masters is always allowed first)', 'RBAC')
    .option('--authorization-webhook-config-file <file>', 'kubeconfig file of a SubjectAccessReview webhook (with --authorization-mode Webhook)')
    .option('--authorization-webhook-cache-authorized-ttl <duration>', 'how long allowed webhook answers are cached (Go duration) (default: 5m0s)', durationOption, 300_000)
    .option('--authorization-webhook-cache-unauthorized-ttl <duration>', 'how long other webhook answers are cached (Go duration) (default: 30s)', durationOption, 30_000)
    .option('--authorization-webhook-version <v>', 'SubjectAccessReview version sent to the webhook: v1 or v1beta1', webhookVersion, 'v1');
}

/** The startServer options the flags ask for; throws kube's messages for inconsistent flags. */
export async function authServerOptions(flags: AuthFlags): Promise<Partial<ServerOptions>> {
  const { webhookEndpoints, parseAuthorizationModes } = await import('./serve-runtime.js');
  const { loadWebhookEndpoint } = await webhookEndpoints();
  const modes = parseAuthorizationModes(flags.authorizationMode);
  const webhookFile = flags.authorizationWebhookConfigFile;
  if (modes.includes('Webhook') && !webhookFile) throw new Error("authorization-mode Webhook's authorization config file not passed (--authorization-webhook-config-file)");
  if (webhookFile && !modes.includes('Webhook')) throw new Error('cannot specify --authorization-webhook-config-file without mode Webhook');
  const options: Partial<ServerOptions> = {};
  const jwt = await jwtOptions(flags);
  if (jwt.length > 0) options.jwt = jwt;
  // The default (RBAC alone) is what the server does without being told.
  if (modes.length !== 1 || modes[0] !== 'RBAC') {
    options.authorization = {
      modes,
      webhook: webhookFile
        ? {
            endpoint: loadWebhookEndpoint('--authorization-webhook-config-file', webhookFile),
            authorizedTTLMs: flags.authorizationWebhookCacheAuthorizedTtl,
            unauthorizedTTLMs: flags.authorizationWebhookCacheUnauthorizedTtl,
            version: flags.authorizationWebhookVersion as 'v1' | 'v1beta1',
          }
        : undefined,
    };
  }
  if (flags.authenticationTokenWebhookConfigFile) {
    options.tokenWebhook = {
      endpoint: loadWebhookEndpoint('--authentication-token-webhook-config-file', flags.authenticationTokenWebhookConfigFile),
      cacheTTLMs: flags.authenticationTokenWebhookCacheTtl,
      version: flags.authenticationTokenWebhookVersion as 'v1' | 'v1beta1',
    };
  }
  return options;
}

/** The JWT issuers of --authentication-config, or the one of the --oidc-* flags (never both). */
async function jwtOptions(flags: AuthFlags): Promise<NonNullable<ServerOptions['jwt']>> {
  const oidcFlags = {
    issuerURL: flags.oidcIssuerUrl,
    clientID: flags.oidcClientId,
    usernameClaim: flags.oidcUsernameClaim,
    usernamePrefix: flags.oidcUsernamePrefix,
    groupsClaim: flags.oidcGroupsClaim,
    groupsPrefix: flags.oidcGroupsPrefix,
    requiredClaims: flags.oidcRequiredClaim,
    caFile: flags.oidcCaFile,
    signingAlgs: flags.oidcSigningAlgs,
  };
  const anyOIDCFlag = Object.values(oidcFlags).some((v) => v !== undefined);
  if (!flags.authenticationConfig && !anyOIDCFlag) return [];
  const { loadAuthenticationConfig, oidcFlagsConfig } = await (await import('./serve-runtime.js')).jwtAuthentication();
  if (flags.authenticationConfig) {
    if (anyOIDCFlag) throw new Error('authentication-config file and oidc-* flags are mutually exclusive');
    return loadAuthenticationConfig(flags.authenticationConfig);
  }
  const one = oidcFlagsConfig(oidcFlags);
  return one ? [one] : [];
}
