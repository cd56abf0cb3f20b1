/**
 * kube's --authorization-mode: the authorizers named, in order, behind the privileged-groups
 * authorizer kube always puts first (system:masters may do anything). The first Allow or Deny
 * decides (union.New); when every one has no opinion the request is refused, with their reasons.
 *
 * Modes: RBAC, Webhook, AlwaysAllow, AlwaysDeny (kube's Node and ABAC do not apply to kgen).
 */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../api/auth.js';
import { isMember, SYSTEM_PRIVILEGED_GROUP } from '../authentication/user.js';

export const AUTHORIZATION_MODES = ['RBAC', 'Webhook', 'AlwaysAllow', 'AlwaysDeny'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

/** Parses kube's comma list; throws kube's messages for unknown or repeated modes. */
export function parseAuthorizationModes(value: string): AuthorizationMode[] {
  const modes = value.split(',').map((m) => m.trim()).filter((m) => m !== '');
  if (modes.length === 0) throw new Error('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const mode of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode)) {
      throw new Error(`authorization-mode ${JSON.stringify(mode)} is not a valid mode (kgen supports ${AUTHORIZATION_MODES.join(', ')})`);
    }
    if (seen.has(mode)) throw new Error(`authorization-mode ${JSON.stringify(mode)} has mode specified more than once`);
    seen.add(mode);
  }
  return modes as AuthorizationMode[];
}

const ALLOW: AuthorizationResult = { decision: 'Allow', reason: '' };

export const alwaysAllowAuthorizer: Authorizer = { authorize: () => ALLOW };
export const alwaysDenyAuthorizer: Authorizer = { authorize: () => ({ decision: 'Deny', reason: 'Everything is forbidden.' }) };

/** The union of `authorizers`, in order, with system:masters first. */
export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  const ask = (a: AuthorizationAttributes, start: number, reasons: string[]): AuthorizationResult | Promise<AuthorizationResult> => {
    for (let i = start; i < authorizers.length; i++) {
      const result = authorizers[i]!.authorize(a);
      if (result instanceof Promise) return result.then((r) => (r.decision !== 'NoOpinion' ? r : ask(a, i + 1, note(reasons, r))));
      if (result.decision !== 'NoOpinion') return result;
      note(reasons, result);
    }
    return { decision: 'NoOpinion', reason: reasons.join(', ') };
  };
  return {
    authorize(a) {
      if (isMember(a.user, SYSTEM_PRIVILEGED_GROUP)) return ALLOW;
      return ask(a, 0, []);
    },
  };
}

function note(reasons: string[], result: AuthorizationResult): string[] {
  if (result.reason) reasons.push(result.reason);
  return reasons;
}
