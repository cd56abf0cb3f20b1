/**
 * The security, limits and shutdown flags of `kgen serve`, named as kube-apiserver's:
 * TLS (--tls-cert-file, --tls-private-key-file, --client-ca-file), authentication
 * (--token-auth-file), --insecure-dev-mode, --advertise-address, overload protection
 * (--max-requests-inflight, --max-mutating-requests-inflight, --request-timeout,
 * --read-header-timeout, --max-request-body-memory), CORS
 * (--cors-allowed-origins), audit (--audit-log-path, --audit-policy-file), graceful shutdown
 * (--shutdown-delay-duration) and the aggregator's front proxy (--proxy-client-cert-file,
 * --proxy-client-key-file, --requestheader-*, --enable-aggregator-routing).
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { ServerOptions } from '../runtime/controlplane/server.js';
import { durationOption } from './duration.js';

export interface SecurityFlags {
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  clientCaFile?: string;
  tokenAuthFile?: string;
  insecureDevMode?: boolean;
  advertiseAddress?: string;
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  requestTimeout: number;
  readHeaderTimeout: number;
  maxRequestBodyMemory: number;
  shutdownDelayDuration: number;
  corsAllowedOrigins: string[];
  auditLogPath?: string;
  auditPolicyFile?: string;
  proxyClientCertFile?: string;
  proxyClientKeyFile?: string;
  requestheaderClientCaFile?: string;
  requestheaderAllowedNames?: string[];
  requestheaderUsernameHeaders?: string[];
  requestheaderUidHeaders?: string[];
  requestheaderGroupHeaders?: string[];
  requestheaderExtraHeadersPrefix?: string[];
  enableAggregatorRouting?: string;
}

function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a non-negative integer (0 disables the limit)');
  return Number(value);
}

/** A byte count: an integer, optionally with a binary suffix (`64Mi`, `512Ki`, `1Gi`). */
export function byteSize(value: string): number {
  const m = /^(\d+)(Ki|Mi|Gi)?$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError('expected a byte count such as 67108864, 64Mi or 1Gi (0 disables the limit)');
  return Number(m[1]) * (m[2] === 'Gi' ? 1024 ** 3 : m[2] === 'Mi' ? 1024 ** 2 : m[2] === 'Ki' ? 1024 : 1);
}

/** kube's StringSlice: comma-separated, repeatable. */
function stringSlice(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').filter((v) => v !== '')];
}

export function addSecurityFlags(command: Command): Command {
  return command
    .option('--tls-cert-file <file>', 'serving certificate (PEM) instead of the one generated under <data-dir>/pki')
    .option('--tls-private-key-file <file>', 'private key (PEM) of --tls-cert-file')
    .option('--client-ca-file <file>', 'CA bundle (PEM) client certificates are verified against, instead of the generated CA')
    .option('--token-auth-file <file>', "static bearer tokens, kube's CSV: token,user,uid,\"group1,group2\"")
    .option('--insecure-dev-mode', 'plain HTTP without authentication (every request is kgen-dev in system:masters); loopback hosts only')
    .option('--advertise-address <ip>', 'address clients use to reach this server: added to the serving certificate and the kubeconfig')
    .option('--max-requests-inflight <n>', 'read-only requests served at once before 429 (0: no limit)', nonNegativeInt, 400)
    .option('--max-mutating-requests-inflight <n>', 'mutating requests served at once before 429 (0: no limit)', nonNegativeInt, 200)
    .option('--request-timeout <duration>', 'deadline of non-long-running requests, reading their body included (Go duration) (default: 1m0s)', durationOption, 60_000)
    .option('--read-header-timeout <duration>', "how long a client may take to send a request's headers (Go's ReadHeaderTimeout) (default: 32s)", durationOption, 32_000)
    .option('--max-request-body-memory <bytes>', 'memory all request bodies being read or held may take at once before 429 (e.g. 64Mi; 0: no limit) (default: 64Mi)', byteSize, 64 * 1024 * 1024)
    .option('--shutdown-delay-duration <duration>', 'on SIGTERM, how long /readyz fails before the listener closes (Go duration) (default: 0s)', durationOption, 0)
    .option('--cors-allowed-origins <regexps>', 'origins (regular expressions, comma-separated, repeatable) allowed CORS; none disables it', stringSlice, [] as string[])
    .option('--audit-log-path <file>', 'write audit events (JSON lines) to this file')
    .option('--audit-policy-file <file>', 'audit.k8s.io/v1 Policy deciding what is audited')
    .option('--proxy-client-cert-file <file>', "the aggregator's client certificate to APIService backends (default: generated under <data-dir>/pki/front-proxy-client)")
    .option('--proxy-client-key-file <file>', 'private key of --proxy-client-cert-file')
    .option('--requestheader-client-ca-file <file>', 'CA bundle of the authenticating proxies whose X-Remote-* headers are believed (default: the generated front-proxy CA)')
    .option('--requestheader-allowed-names <names>', 'client certificate common names allowed to send X-Remote-* headers (comma-separated; empty allows any)', optionalSlice)
    .option('--requestheader-username-headers <headers>', 'request headers naming the user (default: X-Remote-User)', optionalSlice)
    .option('--requestheader-uid-headers <headers>', 'request headers carrying the user UID (default: X-Remote-Uid)', optionalSlice)
    .option('--requestheader-group-headers <headers>', 'request headers naming groups (default: X-Remote-Group)', optionalSlice)
    .option('--requestheader-extra-headers-prefix <prefixes>', 'request header prefixes carrying user extras (default: X-Remote-Extra-)', optionalSlice)
    .option('--enable-aggregator-routing <bool>', 'route APIService requests to endpoint IPs (kgen always does: only true is accepted)', 'true');
}

/** stringSlice for flags without a default (commander passes undefined first). */
function optionalSlice(value: string, previous: string[] | undefined): string[] {
  return stringSlice(value, previous ?? []);
}

function frontProxyOptions(flags: SecurityFlags): ServerOptions['frontProxy'] {
  if (flags.enableAggregatorRouting !== undefined && flags.enableAggregatorRouting !== 'true') {
    throw new InvalidArgumentError('--enable-aggregator-routing: kgen has no cluster IPs and always routes APIService requests to Endpoints addresses; only true is supported');
  }
  return {
    proxyClientCertFile: flags.proxyClientCertFile,
    proxyClientKeyFile: flags.proxyClientKeyFile,
    requestheaderClientCAFile: flags.requestheaderClientCaFile,
    requestheaderAllowedNames: flags.requestheaderAllowedNames,
    requestheaderUsernameHeaders: flags.requestheaderUsernameHeaders,
    requestheaderUidHeaders: flags.requestheaderUidHeaders,
    requestheaderGroupHeaders: flags.requestheaderGroupHeaders,
    requestheaderExtraHeadersPrefix: flags.requestheaderExtraHeadersPrefix,
  };
}

/** The startServer options the flags ask for. */
export function securityServerOptions(flags: SecurityFlags): Partial<ServerOptions> {
  const tlsFiles = flags.tlsCertFile || flags.tlsPrivateKeyFile || flags.clientCaFile;
  return {
    insecureDevMode: flags.insecureDevMode === true,
    tls: flags.insecureDevMode ? undefined : tlsFiles ? { certFile: flags.tlsCertFile, keyFile: flags.tlsPrivateKeyFile, clientCAFile: flags.clientCaFile } : true,
    advertiseAddress: flags.advertiseAddress,
    tokenAuthFile: flags.tokenAuthFile,
    maxRequestsInflight: flags.maxRequestsInflight,
    maxMutatingRequestsInflight: flags.maxMutatingRequestsInflight,
    requestTimeoutMs: flags.requestTimeout,
    readHeaderTimeoutMs: flags.readHeaderTimeout,
    maxRequestBodyMemoryBytes: flags.maxRequestBodyMemory,
    shutdownDelayMs: flags.shutdownDelayDuration,
    corsAllowedOrigins: flags.corsAllowedOrigins,
    audit: { logPath: flags.auditLogPath, policyFile: flags.auditPolicyFile },
    frontProxy: frontProxyOptions(flags),
  };
}
