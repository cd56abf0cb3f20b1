/**
 * The authorizer kube's --authorization-mode asks for: each mode's authorizer, in the order
 * given, in a union behind system:masters (see union.ts).
 */
import type { Authorizer } from '../api/auth.js';
import { alwaysAllowAuthorizer, alwaysDenyAuthorizer, unionAuthorizer, type AuthorizationMode } from './union.js';
import { webhookAuthorizer, type WebhookAuthorizerOptions } from './webhook.js';

export interface AuthorizationModesOptions {
  modes: readonly AuthorizationMode[];
  /** Required when the modes include Webhook. */
  webhook?: WebhookAuthorizerOptions;
}

/** `rbac` is the RBAC authorizer (undefined when the RBAC kinds are not installed). */
export function authorizerForModes(opts: AuthorizationModesOptions, rbac: Authorizer | undefined): Authorizer {
  return unionAuthorizer(
    opts.modes.map((mode): Authorizer => {
      switch (mode) {
        case 'RBAC':
          if (!rbac) throw new Error('authorization mode RBAC needs the RBAC kinds, which this server does not serve');
          return rbac;
        case 'Webhook':
          if (!opts.webhook) throw new Error('authorization-mode Webhook requires --authorization-webhook-config-file');
          return webhookAuthorizer(opts.webhook);
        case 'AlwaysAllow':
          return alwaysAllowAuthorizer;
        case 'AlwaysDeny':
          return alwaysDenyAuthorizer;
        default:
          return assertNever(mode);
      }
    }),
  );
}

function assertNever(x: never): never {
  throw new Error(`unknown authorization mode ${String(x)}`);
}
