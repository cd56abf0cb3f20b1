/**
 * Request authenticators (k8s.io/apiserver/pkg/authentication/authenticator and
 * request/union): each looks at the request and answers with a user, an error (credentials
 * were presented but are not valid: 401), or nothing (it does not apply). The union tries them
 * in order and stops at the first answer; kube's FailOnError wrapper then falls back to the
 * anonymous authenticator only when no one answered at all.
 */
import type { UserInfo } from '../api/auth.js';
import type { IncomingAPIRequest } from '../server/handler.js';
import { withAuthenticatedGroup } from './user.js';

export type AuthenticationResult = { user: UserInfo } | { error: string } | undefined;

export interface RequestAuthenticator {
  /** May remove the credentials it consumed from the request (kube deletes `Authorization`). */
  authenticate(request: IncomingAPIRequest): AuthenticationResult | Promise<AuthenticationResult>;
}

/**
 * The union of authenticators, in order: the first user or error wins. Users it returns carry
 * `system:authenticated` (kube's AuthenticatedGroupAdder).
 */
export function unionAuthenticator(authenticators: readonly RequestAuthenticator[]): RequestAuthenticator {
  return {
    async authenticate(request) {
      const errors: string[] = [];
      for (const authenticator of authenticators) {
        const result = await authenticator.authenticate(request);
        if (result === undefined) continue;
        if ('user' in result) return { user: withAuthenticatedGroup(result.user) };
        errors.push(result.error);
      }
      return errors.length > 0 ? { error: errors.join(', ') } : undefined;
    },
  };
}

/**
 * kube's union.NewFailOnError(authenticator, anonymous): a request whose credentials failed is
 * refused; one that presented none falls through to `fallback` (anonymous).
 */
export function failOnError(primary: RequestAuthenticator, fallback: RequestAuthenticator): RequestAuthenticator {
  return {
    async authenticate(request) {
      const result = await primary.authenticate(request);
      if (result !== undefined) return result;
      return fallback.authenticate(request);
    },
  };
}
