/**
 * The admission chain (kube's admission.chainAdmissionHandler with the webhook plugins last):
 *
 *   mutate:   plugins (in order) → the resource's typed hooks → mutating webhooks
 *   validate: plugins (in order) → the resource's typed hooks → validating webhooks
 *
 * Handlers run `mutate` before the store's defaulting and validation, and `validate` inside the
 * store, after them and right before storage (kube's createValidation/updateValidation).
 */
import { admissionControllerDuration, admissionStepDuration, observeAdmission } from '../metrics/apiserver.js';
import type { AdmissionAttributes } from '../api/auth.js';
import type { APIObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import { newAdmissionForbidden } from './errors.js';
import type { AdmissionContext, AdmissionHooks, AdmissionPlugin, TypedAdmissionAttributes } from '../api/admission.js';
import type { Store } from '../registry/store.js';
import { ADMISSIONREGISTRATION_GROUP, MUTATING_RESOURCE, VALIDATING_RESOURCE } from './webhook/types.js';
import { Webhooks } from './webhook/webhooks.js';
import type { ServiceResolver } from './webhook/client.js';

/** Admission bound to one resource: what a RequestScope carries. */
export interface ResourceAdmission {
  mutate(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void>;
  validate(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void>;
}

type Phase = 'mutate' | 'validate';

/** What admission needs of the installed APIs (the APIInstaller). */
export interface AdmissionAPIs {
  /** A store that lists and watches storage directly (not through the watch cache). */
  uncachedStore(group: string, version: string, resource: string): Store | undefined;
  namespaceStore(): Store | undefined;
}

export class AdmissionChain {
  private readonly plugins: AdmissionPlugin[] = [];
  private webhooks?: Webhooks;
  /** MutatingAdmissionWebhook and ValidatingAdmissionWebhook (--disable-admission-plugins). */
  private mutatingWebhooks = true;
  private validatingWebhooks = true;

  constructor(plugins: readonly AdmissionPlugin[] = []) {
    this.plugins.push(...plugins);
  }

  /** Appends an in-process plugin; it runs after those added before it. */
  addPlugin(plugin: AdmissionPlugin): void {
    this.plugins.push(plugin);
  }

  /** Installs the webhook dispatchers (once the webhook configuration stores exist). */
  setWebhooks(webhooks: Webhooks): void {
    this.webhooks = webhooks;
  }

  /**
   * Starts the MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins over the installed
   * admissionregistration.k8s.io/v1 stores (no-op when they are not installed); resolves once
   * the configurations are listed, so no request is admitted without them.
   */
  async startWebhooks(apis: AdmissionAPIs, enabled: { mutating?: boolean; validating?: boolean } = {}, resolveService?: ServiceResolver): Promise<void> {
    this.mutatingWebhooks = enabled.mutating ?? true;
    this.validatingWebhooks = enabled.validating ?? true;
    if (!this.mutatingWebhooks && !this.validatingWebhooks) return;
    const mutating = apis.uncachedStore(ADMISSIONREGISTRATION_GROUP, 'v1', MUTATING_RESOURCE);
    const validating = apis.uncachedStore(ADMISSIONREGISTRATION_GROUP, 'v1', VALIDATING_RESOURCE);
    if (!mutating || !validating) return;
    const webhooks = new Webhooks({ mutating, validating, namespaces: apis.namespaceStore(), resolveService });
    await webhooks.start();
    this.webhooks = webhooks;
  }

  /** Stops watching webhook configurations. */
  stop(): void {
    this.webhooks?.stop();
  }

  /** The chain for one resource; `hooks` is read per request, so hooks attached later count. */
  forResource(definition: ResourceDefinition, hooks: () => readonly AdmissionHooks<APIObject>[] = () => []): ResourceAdmission {
    return {
      mutate: (attrs, ctx) => this.run('mutate', attrs, ctx, typedHooksFor(definition, attrs, hooks)),
      validate: (attrs, ctx) => this.run('validate', attrs, ctx, typedHooksFor(definition, attrs, hooks)),
    };
  }

  /** One admission phase, timed as kube's apiserver_admission_step_admission_duration_seconds. */
  private run(phase: Phase, attrs: AdmissionAttributes, ctx: AdmissionContext, hooks: readonly AdmissionHooks<APIObject>[]): Promise<void> {
    return observeAdmission(admissionStepDuration, [phase === 'mutate' ? 'admit' : 'validate', attrs.operation], () => this.runSteps(phase, attrs, ctx, hooks));
  }

  private async runSteps(phase: Phase, attrs: AdmissionAttributes, ctx: AdmissionContext, hooks: readonly AdmissionHooks<APIObject>[]): Promise<void> {
    const type = phase === 'mutate' ? 'admit' : 'validate';
    for (const plugin of this.plugins) {
      const step = plugin[phase];
      if (!step || (plugin.handles && !plugin.handles(attrs.operation))) continue;
      // Timed as observeAdmission times (kube's ObserveAdmissionController), without a closure,
      // a label array and two promises per plugin and request.
      const started = performance.now();
      let rejected = 'false';
      try {
        const done = step.call(plugin, attrs, ctx);
        if (done !== undefined) await done;
      } catch (err) {
        rejected = 'true';
        throw newAdmissionForbidden(attrs, err);
      } finally {
        admissionControllerDuration.with(plugin.name, type, attrs.operation, rejected).observe((performance.now() - started) / 1000);
      }
    }
    for (const hook of hooks) {
      const step = hook[phase];
      if (step) await guarded(attrs, () => step.call(hook, attrs as TypedAdmissionAttributes<APIObject>, ctx));
    }
    if (phase === 'mutate') {
      if (this.mutatingWebhooks) await this.webhooks?.mutate(attrs, ctx);
    } else if (this.validatingWebhooks) await this.webhooks?.validate(attrs, ctx);
  }
}

/** Typed hooks see objects of their own kind only: not the Scale of a `scale` write. */
function typedHooksFor(definition: ResourceDefinition, attrs: AdmissionAttributes, hooks: () => readonly AdmissionHooks<APIObject>[]) {
  const ownKind = attrs.kind.kind === definition.kind && attrs.kind.group === definition.group;
  return ownKind ? hooks() : [];
}

/** Runs a plugin step; a non-Status error is kube's admission.NewForbidden. */
async function guarded(attrs: AdmissionAttributes, step: () => void | Promise<void>): Promise<void> {
  try {
    await step();
  } catch (err) {
    throw newAdmissionForbidden(attrs, err);
  }
}
