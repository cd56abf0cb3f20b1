/**
 * X.509 client certificate authentication (k8s.io/apiserver/pkg/authentication/request/x509):
 * the TLS layer verifies the chain (through the intermediates the client presents) against the
 * client CA, and chainsToOneOf verifies it again against this authenticator's own bundle; a
 * verified certificate with the
 * clientAuth usage names the user by its subject's CommonName and its groups by the
 * Organizations (CommonNameUserConversion). A certificate that does not verify is a 401, not
 * an anonymous request.
 */
import type { IncomingAPIRequest } from '../api/request.js';
export type { ClientCertificate } from '../api/request.js';
import type { RequestAuthenticator } from './authenticator.js';
import { chainsToOneOf, CLIENT_AUTH_USAGE, parseCertificates } from './certificates.js';

/**
 * clientCA: when the TLS layer also trusts other CAs (the request-header CA), only certificates
 * this bundle signed name users here, as kube verifies each authenticator's own pool.
 */
export function x509Authenticator(clientCA?: string): RequestAuthenticator {
  const cas = clientCA === undefined ? undefined : parseCertificates(clientCA);
  return {
    authenticate(request: IncomingAPIRequest) {
      const cert = request.clientCertificate;
      if (!cert) return undefined;
      if (!cert.verified) return { error: `verifying certificate failed: x509: ${cert.verifyError ?? 'certificate signed by unknown authority'}` };
      if (cas && !chainsToOneOf(cert, cas)) return { error: 'verifying certificate failed: x509: certificate signed by unknown authority' };
      if (cert.extKeyUsage && !cert.extKeyUsage.includes(CLIENT_AUTH_USAGE)) {
        return { error: 'verifying certificate failed: x509: certificate specifies an incompatible key usage' };
      }
      // kube: a certificate without a CommonName names no one (not an error).
      if (cert.commonName === '') return undefined;
      return { user: { username: cert.commonName, groups: [...cert.organizations] } };
    },
  };
}
