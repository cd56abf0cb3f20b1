/**
 * The aggregated-server flags of `kgen serve`, named and defaulted as k8s.io/apiserver's
 * DelegatingAuthenticationOptions and DelegatingAuthorizationOptions (what sample-apiserver and
 * metrics-server take): --authentication-kubeconfig, --authorization-kubeconfig (in-cluster when
 * absent), --authentication-skip-lookup and --authorization-always-allow-paths. --aggregated turns
 * the mode on in-cluster; either kubeconfig flag turns it on too.
 *
 * The cache TTL flags are the ones kgen serve already has (--authentication-token-webhook-cache-ttl,
 * --authorization-webhook-cache-{authorized,unauthorized}-ttl), with k8s.io/apiserver's delegating
 * defaults (10s each) in this mode unless given. The request-header and --client-ca-file flags are
 * the serving ones: what they leave unset is read from the delegating server's
 * kube-system/extension-apiserver-authentication ConfigMap.
 */
import type { Command } from 'commander';
import type { ServerOptions } from '../runtime/controlplane/server.js';
import type { AuthFlags } from './serve-auth.js';
import type { SecurityFlags } from './serve-security.js';

export interface DelegationFlags {
  aggregated?: boolean;
  authenticationKubeconfig?: string;
  authorizationKubeconfig?: string;
  authenticationSkipLookup?: boolean;
  authorizationAlwaysAllowPaths: string[];
  /** Set by the preAction hook: which TTL flags were given on the command line. */
  delegationTTLsGiven?: { token: boolean; authorized: boolean; unauthorized: boolean };
}

const TTL_FLAGS = { token: 'authenticationTokenWebhookCacheTtl', authorized: 'authorizationWebhookCacheAuthorizedTtl', unauthorized: 'authorizationWebhookCacheUnauthorizedTtl' } as const;

function paths(value: string, previous: string[] | undefined): string[] {
  // A given value replaces the default, as pflag's StringSlice does on first use.
  const prior = previous === DEFAULT_PATHS ? [] : (previous ?? []);
  return [...prior, ...value.split(',').filter((p) => p !== '')];
}

const DEFAULT_PATHS = ['/healthz', '/readyz', '/livez'];

export function addDelegationFlags(command: Command): Command {
  return command
    .option('--aggregated', "serve as an aggregated API server: only the generated groups, with authentication and authorization delegated to the cluster's API server (in-cluster unless the kubeconfig flags say otherwise)")
    .option('--authentication-kubeconfig <file>', 'kubeconfig of the API server TokenReviews go to and the extension-apiserver-authentication ConfigMap is read from (implies --aggregated; default in-cluster)')
    .option('--authorization-kubeconfig <file>', 'kubeconfig of the API server SubjectAccessReviews go to (implies --aggregated; default in-cluster)')
    .option('--authentication-skip-lookup', 'do not read kube-system/extension-apiserver-authentication: use the --client-ca-file and --requestheader-* flags alone')
    .option('--authorization-always-allow-paths <paths>', 'paths (comma-separated; a trailing * matches a prefix) every one may reach without a SubjectAccessReview (aggregated mode)', paths, DEFAULT_PATHS)
    .hook('preAction', (_self, action) => {
      const given = (key: string) => action.getOptionValueSource(key) === 'cli';
      action.setOptionValue('delegationTTLsGiven', { token: given(TTL_FLAGS.token), authorized: given(TTL_FLAGS.authorized), unauthorized: given(TTL_FLAGS.unauthorized) });
    });
}

/** The startServer options of aggregated mode; empty when the mode is off. Throws on flags that do not apply. */
export function delegationServerOptions(flags: DelegationFlags & AuthFlags & SecurityFlags): Partial<ServerOptions> {
  if (!flags.aggregated && !flags.authenticationKubeconfig && !flags.authorizationKubeconfig) return {};
  const conflicting = [
    flags.tokenAuthFile && '--token-auth-file',
    flags.authenticationTokenWebhookConfigFile && '--authentication-token-webhook-config-file',
    flags.authorizationWebhookConfigFile && '--authorization-webhook-config-file',
    flags.authorizationMode !== 'RBAC' && '--authorization-mode',
    flags.insecureDevMode && '--insecure-dev-mode',
  ].filter(Boolean);
  if (conflicting.length) throw new Error(`${conflicting.join(', ')}: not for an aggregated server, which delegates authentication and authorization to the cluster's API server`);
  const given = flags.delegationTTLsGiven ?? { token: false, authorized: false, unauthorized: false };
  return {
    delegatedAuth: {
      authenticationKubeconfig: flags.authenticationKubeconfig,
      authorizationKubeconfig: flags.authorizationKubeconfig,
      skipLookup: flags.authenticationSkipLookup === true,
      tokenCacheTTLMs: given.token ? flags.authenticationTokenWebhookCacheTtl : 10_000,
      authorizedTTLMs: given.authorized ? flags.authorizationWebhookCacheAuthorizedTtl : 10_000,
      unauthorizedTTLMs: given.unauthorized ? flags.authorizationWebhookCacheUnauthorizedTtl : 10_000,
      alwaysAllowPaths: flags.authorizationAlwaysAllowPaths,
      clientCAFile: flags.clientCaFile,
      requestHeader: {
        clientCAFile: flags.requestheaderClientCaFile,
        allowedNames: flags.requestheaderAllowedNames,
        usernameHeaders: flags.requestheaderUsernameHeaders,
        uidHeaders: flags.requestheaderUidHeaders,
        groupHeaders: flags.requestheaderGroupHeaders,
        extraHeadersPrefix: flags.requestheaderExtraHeadersPrefix,
      },
    },
  };
}
