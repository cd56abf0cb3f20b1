/**
 * The MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins: the configurations kept
 * by watch, the namespace labels for namespaceSelector, and the two dispatchers.
 */
import type { AdmissionAttributes } from '../../api/auth.js';
import { isNotFound, newNotFound } from '../../api/status.js';
import type { Store } from '../../registry/store.js';
import type { AdmissionContext } from '../../api/admission.js';
import type { ServiceResolver } from './client.js';
import type { NamespaceLabels } from './matcher.js';
import { dispatchMutating } from './mutating.js';
import { WebhookConfigurationSource } from './source.js';
import { dispatchValidating } from './validating.js';

export interface WebhooksConfig {
  /** The store of mutatingwebhookconfigurations. */
  mutating: Store;
  /** The store of validatingwebhookconfigurations. */
  validating: Store;
  /** The store of namespaces, for namespaceSelector; absent: only empty selectors match namespaced requests. */
  namespaces?: Store;
  /** Resolves clientConfig.service references (through the Service's Endpoints). */
  resolveService?: ServiceResolver;
}

export class Webhooks {
  readonly mutatingSource: WebhookConfigurationSource;
  readonly validatingSource: WebhookConfigurationSource;
  private readonly namespaceLabels: NamespaceLabels;
  private readonly resolveService?: ServiceResolver;

  constructor(config: WebhooksConfig) {
    this.resolveService = config.resolveService;
    this.mutatingSource = new WebhookConfigurationSource(config.mutating);
    this.validatingSource = new WebhookConfigurationSource(config.validating);
    this.namespaceLabels = namespaceLabelsFrom(config.namespaces);
  }

  /** Starts watching the configurations; resolves once both are listed. */
  async start(): Promise<void> {
    await Promise.all([this.mutatingSource.start(), this.validatingSource.start()]);
  }

  stop(): void {
    this.mutatingSource.stop();
    this.validatingSource.stop();
  }

  mutate(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
    const hooks = this.mutatingSource.webhooks();
    return hooks.length === 0 ? Promise.resolve() : dispatchMutating(hooks, attrs, ctx, this.namespaceLabels, this.resolveService);
  }

  validate(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
    const hooks = this.validatingSource.webhooks();
    return hooks.length === 0 ? Promise.resolve() : dispatchValidating(hooks, attrs, ctx, this.namespaceLabels, this.resolveService);
  }
}

/** Labels of a namespace, read through the watch cache (resourceVersion 0), 404 when it is missing. */
function namespaceLabelsFrom(namespaces: Store | undefined): NamespaceLabels {
  return async (name) => {
    if (!namespaces) throw newNotFound({ group: '', resource: 'namespaces' }, name);
    try {
      return (await namespaces.get(undefined, name, { resourceVersion: '0' })).metadata.labels;
    } catch (err) {
      // The cache may lag a just-created namespace: ask storage before answering 404 (as kube does).
      if (!isNotFound(err)) throw err;
      return (await namespaces.get(undefined, name)).metadata.labels;
    }
  };
}
