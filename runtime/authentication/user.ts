/**
 * Well-known users and groups (k8s.io/apiserver/pkg/authentication/user) and the helpers every
 * authenticator shares.
 */
import { ANONYMOUS_USER, type UserInfo } from '../api/auth.js';

/** Members bypass authorization (and max-in-flight limits), as kube's `system:masters`. */
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const ANONYMOUS = ANONYMOUS_USER.username;

export function isMember(user: UserInfo | undefined, group: string): boolean {
  return user !== undefined && user.groups.includes(group);
}

/**
 * user with `system:authenticated` added, as kube's AuthenticatedGroupAdder does for every user
 * an authenticator recognised (never for the anonymous user, and never twice).
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === ANONYMOUS) return user;
  if (user.groups.includes(ALL_AUTHENTICATED) || user.groups.includes(ALL_UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, ALL_AUTHENTICATED] };
}
