/**
 * A server certificate's name checked as Go's crypto/x509 (Certificate.VerifyHostname, Go 1.15+)
 * checks it for every outbound connection kube-apiserver makes (aggregated APIs, admission and
 * conversion webhooks, authentication/authorization webhooks, OIDC issuers): only the
 * subjectAltName identifies the server. Node's tls.checkServerIdentity still falls back to the
 * subject's CommonName when a certificate holds no DNS name, so a CommonName-only certificate
 * passed where Go refuses it; and a CA's name constraints bind SANs, not the CommonName, so the
 * fallback also let a constrained CA vouch for any name. Pass `checkServerIdentity` as the TLS
 * option of such connections.
 */
import { isIP } from 'node:net';
import { checkServerIdentity as nodeCheckServerIdentity, type PeerCertificate } from 'node:tls';

/** The DNS names of a peer certificate's subjectAltName ("DNS:a, IP Address:1.2.3.4, …"). */
function dnsNames(cert: PeerCertificate): string[] {
  return (cert.subjectaltname ?? '')
    .split(', ')
    .filter((n) => n.startsWith('DNS:'))
    .map((n) => n.slice(4));
}

/** Go's x509.HostnameError text for a host name (not an IP) and a certificate with no DNS SAN. */
function noDNSNameError(host: string, cert: PeerCertificate): Error & { code: string; reason: string } {
  const cn = cert.subject?.CN;
  const legacy = !cert.subjectaltname && (Array.isArray(cn) ? cn : [cn]).some((n) => typeof n === 'string' && n.toLowerCase() === host.toLowerCase());
  const message = legacy ? 'x509: certificate relies on legacy Common Name field, use SANs instead' : `x509: certificate is not valid for any names, but wanted to match ${host}`;
  // Node's own name error's code, so callers that recognise it keep doing so.
  return Object.assign(new Error(message), { code: 'ERR_TLS_CERT_ALTNAME_INVALID', reason: message });
}

/** tls.checkServerIdentity without the CommonName fallback: returns the error, or undefined when the name matches. */
export function checkServerIdentity(host: string, cert: PeerCertificate): Error | undefined {
  const name = host.replace(/^\[|\]$/g, '');
  if (isIP(name) === 0 && dnsNames(cert).length === 0) return noDNSNameError(name, cert);
  return nodeCheckServerIdentity(host, cert);
}
