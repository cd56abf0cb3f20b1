/**
 * The anonymous authenticator, restricted to paths (kube's AnonymousAuthConfig with
 * `conditions`, k8s.io/apiserver/pkg/authentication/request/anonymous): requests without
 * credentials are `system:anonymous` in `system:unauthenticated` on the health and version
 * endpoints only; anywhere else they are not authenticated, so the server answers 401.
 */
import { ANONYMOUS_USER } from '../api/auth.js';
import type { IncomingAPIRequest } from '../api/request.js';
import type { RequestAuthenticator } from './authenticator.js';

/** The paths kube's probes and `kubectl version` reach without credentials. */
export const DEFAULT_ANONYMOUS_PATHS = ['/healthz', '/livez', '/readyz', '/version'] as const;

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** Whether path is one of paths or below one (`/livez/ping`, `/version/`). */
export function pathMatches(path: string, paths: readonly string[]): boolean {
  return paths.some((p) => path === p || path.startsWith(`${p}/`));
}

export function anonymousAuthenticator(paths: readonly string[] = DEFAULT_ANONYMOUS_PATHS): RequestAuthenticator {
  return {
    authenticate(request: IncomingAPIRequest) {
      if (!pathMatches(pathOf(request.url), paths)) return undefined;
      return { user: { ...ANONYMOUS_USER, groups: [...ANONYMOUS_USER.groups] } };
    },
  };
}
