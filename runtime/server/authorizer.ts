/**
 * The authorizer the server uses until RBAC is wired in (and the fallback when none is given):
 * never allow-all. It allows
 *   - members of `system:masters`, everything (kube's privileged group);
 *   - everyone, `get` on the health and version endpoints and below them (kube's
 *     system:public-info-viewer);
 *   - authenticated users, `get` on discovery and OpenAPI (kube's system:discovery), so kubectl
 *     can find resources and then show the 403 for the resource itself.
 * Everything else gets no opinion, which the authorization filter answers with 403.
 */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../api/auth.js';
import { pathMatches } from '../authentication/anonymous.js';
import { ALL_AUTHENTICATED, isMember, SYSTEM_PRIVILEGED_GROUP } from '../authentication/user.js';

const PUBLIC_INFO_PATHS = ['/healthz', '/livez', '/readyz', '/version'];
const DISCOVERY_PATHS = ['/api', '/apis', '/openapi'];

const ALLOW: AuthorizationResult = { decision: 'Allow', reason: '' };
const NO_OPINION: AuthorizationResult = { decision: 'NoOpinion', reason: '' };

export function privilegedGroupAuthorizer(): Authorizer {
  return {
    authorize(a: AuthorizationAttributes): AuthorizationResult {
      if (isMember(a.user, SYSTEM_PRIVILEGED_GROUP)) return { decision: 'Allow', reason: '' };
      if (a.isResourceRequest || a.verb !== 'get') return NO_OPINION;
      if (pathMatches(a.path, PUBLIC_INFO_PATHS)) return ALLOW;
      if (isMember(a.user, ALL_AUTHENTICATED) && pathMatches(a.path, DISCOVERY_PATHS)) return ALLOW;
      return NO_OPINION;
    },
  };
}
