/**
 * ClusterRole aggregation (kube's pkg/controller/clusterroleaggregation):
 *
 * - aggregateClusterRoleRules: the rules of a ClusterRole with an aggregationRule are those of
 *   every other ClusterRole its selectors match, selector by selector, roles by name, each rule
 *   once. Its own `rules` do not count: kube's controller overwrites them. The PolicyIndex
 *   authorizes with this (so a change takes effect at once), and the controller below writes it
 *   back, so that what clients read (`kubectl get clusterrole view -o yaml`) is what is enforced.
 * - ClusterRoleAggregationController: on every change of any ClusterRole, every aggregating one
 *   is queued; one whose stored rules differ is written by server-side apply (field manager
 *   `clusterrole-aggregation-controller`, force), as kube's controller does. The write is made as
 *   kube's controller identity (the service account kube-system/clusterrole-aggregation-
 *   controller) and passes the same RBAC escalation check as any request: it is allowed through
 *   the `escalate` verb the bootstrap policy grants that identity, and refused (403, retried with
 *   backoff) if someone took it away.
 */
import type { UserInfo } from '../api/auth.js';
import type { KubeObject } from '../api/meta.js';
import { fieldManagerOf } from '../endpoints/fieldmanager/index.js';
import type { RequestScope } from '../endpoints/handler.js';
import { normalizeObjectMeta } from '../endpoints/serializer.js';
import { WorkQueue, type WorkQueueOptions } from '../controllers/queue.js';
import { labelSelectorAsSelector } from '../api/labels.js';
import { isNotFound } from '../api/status.js';
import { checkEscalation, type EscalationCheckOptions } from './escalation.js';
import { serviceAccountUsername } from './rules.js';
import { ALL_AUTHENTICATED, RBAC_GROUP, type ClusterRole, type PolicyRule } from './types.js';

export const AGGREGATION_CONTROLLER_NAME = 'clusterrole-aggregation-controller';
export const AGGREGATION_CONTROLLER_NAMESPACE = 'kube-system';
/** kube's bootstrap role (and binding) for the controller: `system:controller:<name>`. */
export const AGGREGATION_CONTROLLER_ROLE = `system:controller:${AGGREGATION_CONTROLLER_NAME}`;

/** The identity the controller writes as (kube runs it with its own service account's credentials). */
export const AGGREGATION_CONTROLLER_USER: UserInfo = {
  username: serviceAccountUsername(AGGREGATION_CONTROLLER_NAMESPACE, AGGREGATION_CONTROLLER_NAME),
  groups: ['system:serviceaccounts', `system:serviceaccounts:${AGGREGATION_CONTROLLER_NAMESPACE}`, ALL_AUTHENTICATED],
};

/** Go's sort by name: byte order, not locale order. */
const byName = (a: KubeObject, b: KubeObject) => {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * A rule's identity for "each rule once" (kube compares with equality.Semantic.DeepEqual, for
 * which an empty list and no list are the same): fields in one order, empty lists dropped.
 */
export function ruleKey(rule: PolicyRule): string {
  const fields = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;
  return JSON.stringify(fields.map((f) => (rule[f]?.length ? rule[f] : null)));
}

/** Whether two rule lists are the same, rule by rule (Semantic.DeepEqual on []PolicyRule). */
export function rulesEqual(a: readonly PolicyRule[] | undefined, b: readonly PolicyRule[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((rule, i) => ruleKey(rule) === ruleKey(y[i]!));
}

/**
 * The aggregated rules of `role` (syncClusterRole): for each selector in order, the matching
 * ClusterRoles other than `role` sorted by name, and each of their rules (as `rulesOf` gives
 * them) unless an equal one is already there.
 */
export function aggregateClusterRoleRules(role: ClusterRole, roles: Iterable<ClusterRole>, rulesOf: (other: ClusterRole) => readonly PolicyRule[]): PolicyRule[] {
  const all = [...roles].sort(byName);
  const out: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const selector of role.aggregationRule?.clusterRoleSelectors ?? []) {
    // LabelSelectorAsSelector; one that cannot be a selector throws, failing the role's sync (the
    // work queue retries it), as kube's controller returns the error.
    const selected = labelSelectorAsSelector(selector);
    for (const other of all) {
      if (other.metadata.name === role.metadata.name || !selected.matches(other.metadata.labels)) continue;
      for (const rule of rulesOf(other)) {
        const key = ruleKey(rule);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(rule);
      }
    }
  }
  return out;
}

/** What the controller reads: the ClusterRoles and their effective (aggregated) rules. */
export interface AggregationSource {
  listClusterRoles(): readonly ClusterRole[];
  getClusterRole(name: string): ClusterRole | undefined;
  clusterRoleRules(role: ClusterRole): readonly PolicyRule[];
}

export interface AggregationControllerOptions extends EscalationCheckOptions {
  /** The clusterroles scope: its store and field manager. */
  scope: Pick<RequestScope, 'definition' | 'store' | 'fieldManager'>;
  source: AggregationSource;
  log?: (line: string) => void;
  queue?: WorkQueueOptions;
}

export class ClusterRoleAggregationController {
  private readonly queue: WorkQueue<string>;
  private readonly log: (line: string) => void;
  private running: Promise<void> | undefined;
  /** Writes made (for tests and metrics). */
  writes = 0;

  constructor(private readonly opts: AggregationControllerOptions) {
    this.queue = new WorkQueue(opts.queue);
    this.log = opts.log ?? (() => undefined);
  }

  /** Keys waiting or being processed. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * Any ClusterRole changed: queue every aggregating one (kube's enqueueAll; the set is small and
   * the dependency graph unknown, so everything that may aggregate is looked at again).
   */
  enqueueAll(): void {
    for (const role of this.opts.source.listClusterRoles()) {
      if (role.aggregationRule) this.queue.add(role.metadata.name ?? '');
    }
  }

  run(): void {
    this.enqueueAll();
    this.running ??= this.queue.run(
      (name) => this.sync(name),
      (name, err) => {
        // kube's ClusterRoleAggregationController: AddRateLimited on every error, never dropped.
        this.queue.addRateLimited(name);
        this.log(`${AGGREGATION_CONTROLLER_NAME}: ${name}: ${(err as Error).message} (retrying)`);
      },
    );
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await this.running;
  }

  /** Writes the aggregated rules into one ClusterRole when its stored rules differ. */
  async sync(name: string): Promise<void> {
    const { source, scope } = this.opts;
    const role = source.getClusterRole(name);
    if (!role?.aggregationRule) return;
    const rules = source.clusterRoleRules(role);
    if (rulesEqual(rules, role.rules)) return;
    const fm = fieldManagerOf(scope);
    const config: KubeObject = { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: { name }, rules: structuredClone([...rules]) };
    class Unchanged extends Error {}
    try {
      await scope.store.update(
        undefined,
        name,
        {
          updatedObject: (current) => {
            // Only a role that still aggregates, and still differs, is written.
            if (!(current as ClusterRole).aggregationRule || rulesEqual((current as ClusterRole).rules, rules)) throw new Unchanged();
            return normalizeObjectMeta(fm.apply(current, config, AGGREGATION_CONTROLLER_NAME, { force: true }));
          },
        },
        { updateValidation: (obj, old) => checkEscalation(this.attributes(obj, old), this.opts) },
      );
      this.writes++;
    } catch (err) {
      if (err instanceof Unchanged || isNotFound(err)) return;
      throw err;
    }
  }

  private attributes(obj: KubeObject, old: KubeObject) {
    return {
      operation: 'UPDATE' as const,
      object: obj,
      oldObject: old,
      user: AGGREGATION_CONTROLLER_USER,
      namespace: '',
      name: obj.metadata.name ?? '',
      resource: { group: RBAC_GROUP, version: 'v1', resource: 'clusterroles' },
      subresource: '',
      kind: { group: RBAC_GROUP, version: 'v1', kind: 'ClusterRole' },
      dryRun: false,
    };
  }
}
