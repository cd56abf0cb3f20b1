/**
 * Writes the synthetic API set in kgen's input language: `<dir>/<group>/v1/<kind>.ts`, one file
 * per kind, with resource markers (print columns, status and scale subresources, short names,
 * categories) and field tags (bounds, patterns, defaults, list types, preserved unknown fields).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KindSpec } from './spec.js';

export function kindFile(k: KindSpec, extraField = ''): string {
  const K = k.kind;
  const scale = k.scale
    ? `\n * @kgen:subresource scale specReplicasPath=.spec.replicas statusReplicasPath=.status.replicas labelSelectorPath=.status.selector`
    : '';
  return `import type { Condition, Duration, int32, int64, IntOrString, LabelSelector, ObjectReference, Quantity, Time } from 'kgen';

/**
 * ${K} is a synthetic benchmark resource (${k.group}, kind ${k.index}).
 * @kgen:resource scope=${k.namespaced ? 'Namespaced' : 'Cluster'} shortNames=bk${k.index} categories=bench
 * @kgen:subresource status${scale}
 * @kgen:printcolumn name=Replicas type=integer jsonPath=.spec.replicas description="Desired replicas"
 * @kgen:printcolumn name=Mode type=string jsonPath=.spec.mode
 * @kgen:printcolumn name=Phase type=string jsonPath=.status.phase priority=1
 * @kgen:selectableField jsonPath=.spec.mode
 */
export interface ${K} {
  /** Spec is the desired state. */
  spec: ${K}Spec;
  /** Status is the observed state. */
  status?: ${K}Status;
}

/** How a ${K} runs. */
export type ${K}Mode = 'Fast' | 'Safe' | 'Off';

/** ${K}Spec is the desired state of a ${K}. */
export interface ${K}Spec {
  /**
   * Desired replicas.
   * @minimum 0
   * @maximum 1000
   * @default 1
   */
  replicas?: int32;
  /**
   * Run mode.
   * @default "Safe"
   */
  mode?: ${K}Mode;
  /**
   * Human title.
   * @minLength 1
   * @maxLength 253
   */
  title: string;
  /** Free text. */
  description?: string;
  /**
   * Relative weight.
   * @minimum 0
   */
  weight?: number;
  /** Whether the object is active. */
  enabled?: boolean;
  /**
   * Seconds before giving up.
   * @minimum 1
   */
  timeoutSeconds?: int64;
  /** Labels copied onto children. */
  childLabels?: Record<string, string>;
  /** Resource limits, such as cpu: 500m. */
  limits?: Record<string, Quantity>;
  /** Port by number or name. */
  port?: IntOrString;
  /**
   * Tags.
   * @kgen:listType set
   * @maxItems 16
   */
  tags?: string[];
  /**
   * Endpoints served.
   * @kgen:listType map
   * @kgen:listMapKey name
   * @maxItems 32
   */
  endpoints?: ${K}Endpoint[];
  /** What this object acts on. */
  target: ${K}Target;
  /** Selects the children. */
  selector?: LabelSelector;
  /** Maintenance windows, as lists of weekday names. */
  schedule?: string[][];
  /** Not active before this time. */
  notBefore?: Time | null;
  /** How long results are kept. */
  retention?: Duration;
  /** Named settings. */
  settings?: Record<string, ${K}Setting>;
  /** Related objects. */
  related?: ObjectReference[];
  /**
   * Opaque data for automation.
   * @kgen:preserveUnknownFields
   */
  extra?: unknown;${extraField}
}

/** One endpoint. */
export interface ${K}Endpoint {
  /**
   * Unique name.
   * @minLength 1
   * @maxLength 63
   * @pattern ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$
   */
  name: string;
  /**
   * Port number.
   * @minimum 1
   * @maximum 65535
   */
  port: int32;
  /** Protocol. */
  protocol?: 'TCP' | 'UDP' | 'SCTP';
}

/** The object acted on. */
export interface ${K}Target {
  /** Kind of the target. */
  kind: string;
  /** Name of the target. */
  name: string;
  /** Namespace; empty means the same. */
  namespace?: string;
  /**
   * Share of the work.
   * @minimum 0
   * @maximum 100
   */
  share?: int32;
}

/** One setting. */
export interface ${K}Setting {
  /** The value. */
  value: string;
  /** Whether to hide it. */
  secret?: boolean;
}

/** ${K}Status is the observed state of a ${K}. */
export interface ${K}Status {
  /** Running replicas. */
  replicas?: int32;
  /** Selector of the replicas, as a string. */
  selector?: string;
  /** Lifecycle phase. */
  phase?: 'Pending' | 'Running' | 'Failed';
  /** Generation last acted on. */
  observedGeneration?: int64;
  /** When the phase last changed. */
  lastTransitionTime?: Time;
  /**
   * Conditions, such as Ready.
   * @kgen:listType map
   * @kgen:listMapKey type
   */
  conditions?: Condition[];
}
`;
}

export function kindPath(dir: string, k: KindSpec): string {
  return join(dir, k.group, k.version, `${k.kind.toLowerCase()}.ts`);
}

/** Writes the apis folder (replacing `dir`). */
export function writeKgenApis(dir: string, kinds: KindSpec[]): void {
  rmSync(dir, { recursive: true, force: true });
  for (const k of kinds) {
    const path = kindPath(dir, k);
    mkdirSync(join(dir, k.group, k.version), { recursive: true });
    writeFileSync(path, kindFile(k));
  }
}
