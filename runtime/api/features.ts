/**
 * Feature gates (kube's --feature-gates, k8s.io/component-base/featuregate): named switches for
 * behaviours kgen can run with or without, each with kube's default. Set once at start-up, before
 * any request, and read where the behaviour lives; like kube's DefaultFeatureGate, one set per
 * process.
 *
 * | gate | default | stage | what it switches |
 * | CRDValidationRatcheting | true | Beta | an update may keep a value that breaks an x-kubernetes-validations rule if it did not change it |
 * | ConsistentListFromCache | true | Beta | a list without resourceVersion is served from the watch cache once it has caught up with storage, instead of from storage |
 */
export const FEATURE_GATES = {
  CRDValidationRatcheting: { default: true, stage: 'Beta' },
  ConsistentListFromCache: { default: true, stage: 'Beta' },
} as const;

export type FeatureGate = keyof typeof FEATURE_GATES;

const overrides = new Map<FeatureGate, boolean>();

/** Whether the gate is on (its default unless --feature-gates said otherwise). */
export function featureEnabled(gate: FeatureGate): boolean {
  return overrides.get(gate) ?? FEATURE_GATES[gate].default;
}

/**
 * Parses kube's `Name=true,Other=false` form (comma-separated, repeatable) and applies it.
 * Throws kube's messages for unknown gates and values that are not booleans.
 */
export function setFeatureGates(values: readonly string[]): void {
  const parsed = new Map<FeatureGate, boolean>();
  for (const value of values) {
    for (const pair of value.split(',')) {
      const trimmed = pair.trim();
      if (trimmed === '') continue;
      const eq = trimmed.indexOf('=');
      if (eq < 0) throw new Error(`missing bool value for ${trimmed}`);
      const name = trimmed.slice(0, eq).trim();
      const raw = trimmed.slice(eq + 1).trim();
      if (!(name in FEATURE_GATES)) throw new Error(`unrecognized feature gate: ${name}`);
      const on = /^(1|t|T|TRUE|true|True)$/.test(raw) ? true : /^(0|f|F|FALSE|false|False)$/.test(raw) ? false : undefined;
      if (on === undefined) throw new Error(`invalid value of ${name}=${raw}, err: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
      parsed.set(name as FeatureGate, on);
    }
  }
  overrides.clear();
  for (const [name, on] of parsed) overrides.set(name, on);
}
