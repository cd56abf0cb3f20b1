/**
 * Which API groups are Kubernetes' own (and kgen's built-ins): the legacy core group, the groups
 * kube reserves (`*.k8s.io`, `*.kubernetes.io`) and kube's historical unsuffixed groups. An
 * aggregated server serves only the others — its own — as an APIService can name only a group
 * the front server does not serve itself.
 */
const UNSUFFIXED_KUBE_GROUPS = new Set(['apps', 'autoscaling', 'batch', 'extensions', 'policy']);

/** kube's groups named without a dot (apps, autoscaling, batch, extensions, policy). */
export function isUnsuffixedKubeGroup(group: string): boolean {
  return UNSUFFIXED_KUBE_GROUPS.has(group);
}

export function isKubeGroup(group: string): boolean {
  return (
    group === '' ||
    group === 'k8s.io' ||
    group.endsWith('.k8s.io') ||
    group === 'kubernetes.io' ||
    group.endsWith('.kubernetes.io') ||
    UNSUFFIXED_KUBE_GROUPS.has(group)
  );
}
