/**
 * Objects of a synthetic kind: about 1 KB of JSON once the server has added its metadata (uid,
 * creationTimestamp, resourceVersion, generation, and managedFields, which is 40% of it).
 */
import type { KindSpec } from '../synth/spec.js';

export const NAMESPACE = 'default';

export function apiVersion(k: KindSpec): string {
  return `${k.group}/${k.version}`;
}

/** The object a client sends to create `name` (`seq` goes into spec.title). */
export function sampleObject(k: KindSpec, name: string, seq = 0): Record<string, unknown> {
  return {
    apiVersion: apiVersion(k),
    kind: k.kind,
    metadata: { name, ...(k.namespaced ? { namespace: NAMESPACE } : {}), labels: { app: 'bench', tier: 'backend' } },
    spec: {
      replicas: 3,
      mode: 'Fast',
      title: `seq-${seq}`,
      enabled: true,
      limits: { cpu: '500m' },
      port: 'http',
      tags: ['alpha', 'beta'],
      endpoints: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      target: { kind: 'Deployment', name: 'frontend' },
      selector: { matchLabels: { app: 'bench' } },
    },
  };
}

/** A name valid as a DNS subdomain: `<prefix>-<n>`. */
export function objectName(prefix: string, n: number): string {
  return `${prefix}-${n}`;
}

/** `/apis/<group>/<version>[/namespaces/default]/<plural>`. */
export function collectionPath(k: KindSpec): string {
  return `/apis/${k.group}/${k.version}${k.namespaced ? `/namespaces/${NAMESPACE}` : ''}/${k.plural}`;
}
