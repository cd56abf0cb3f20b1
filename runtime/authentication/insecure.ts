/**
 * `--insecure-dev-mode`: every request is `kgen-dev` in `system:masters`, as requests on
 * kube-apiserver's old insecure port were (no authentication, full authority). Only allowed on
 * loopback addresses; see runtime/controlplane/server.ts.
 */
import type { UserInfo } from '../api/auth.js';
import type { RequestAuthenticator } from './authenticator.js';
import { ALL_AUTHENTICATED, SYSTEM_PRIVILEGED_GROUP } from './user.js';

export const INSECURE_DEV_USER: UserInfo = { username: 'kgen-dev', groups: [SYSTEM_PRIVILEGED_GROUP, ALL_AUTHENTICATED] };

export function insecureDevAuthenticator(): RequestAuthenticator {
  return { authenticate: () => ({ user: { ...INSECURE_DEV_USER, groups: [...INSECURE_DEV_USER.groups] } }) };
}
