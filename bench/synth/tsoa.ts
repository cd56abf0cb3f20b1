/**
 * Writes the tsoa 6.6 project equivalent to the synthetic kgen API set, the baseline of the
 * code-generation benchmark: the same models (with tsoa's validation tags for the same bounds,
 * patterns and defaults), the apimachinery types they use, and one CRUD controller per kind
 * (list, get, create, replace, patch, delete) on kube's paths. `tsoa spec-and-routes` then does
 * what `kgen generate` does for the same set: an OpenAPI document and route code.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KindSpec } from './spec.js';

const META = `/** Standard object metadata. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  /** @isLong */
  generation?: number;
  creationTimestamp?: Date;
  deletionTimestamp?: Date;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  /** @isLong */
  remainingItemCount?: number;
}

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  fieldPath?: string;
  resourceVersion?: string;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  /** @isLong */
  observedGeneration?: number;
  lastTransitionTime: Date;
  reason: string;
  message: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
}

export interface Status {
  apiVersion?: string;
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  details?: StatusDetails;
  /** @isInt */
  code?: number;
}
`;

function modelFile(k: KindSpec): string {
  const K = k.kind;
  return `import type { Condition, LabelSelector, ListMeta, ObjectMeta, ObjectReference } from '../meta';

/** ${K} is a synthetic benchmark resource (${k.group}, kind ${k.index}). */
export interface ${K} {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  /** Spec is the desired state. */
  spec: ${K}Spec;
  /** Status is the observed state. */
  status?: ${K}Status;
}

/** A list of ${K}. */
export interface ${K}List {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items: ${K}[];
}

/** How a ${K} runs. */
export type ${K}Mode = 'Fast' | 'Safe' | 'Off';

/** ${K}Spec is the desired state of a ${K}. */
export interface ${K}Spec {
  /**
   * Desired replicas.
   * @isInt
   * @minimum 0
   * @maximum 1000
   * @default 1
   */
  replicas?: number;
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
   * @isLong
   * @minimum 1
   */
  timeoutSeconds?: number;
  /** Labels copied onto children. */
  childLabels?: Record<string, string>;
  /** Resource limits, such as cpu: 500m. */
  limits?: Record<string, string | number>;
  /** Port by number or name. */
  port?: string | number;
  /**
   * Tags.
   * @maxItems 16
   * @uniqueItems
   */
  tags?: string[];
  /**
   * Endpoints served.
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
  notBefore?: Date | null;
  /** How long results are kept. */
  retention?: string;
  /** Named settings. */
  settings?: Record<string, ${K}Setting>;
  /** Related objects. */
  related?: ObjectReference[];
  /** Opaque data for automation. */
  extra?: unknown;
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
   * @isInt
   * @minimum 1
   * @maximum 65535
   */
  port: number;
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
   * @isInt
   * @minimum 0
   * @maximum 100
   */
  share?: number;
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
  /**
   * Running replicas.
   * @isInt
   */
  replicas?: number;
  /** Selector of the replicas, as a string. */
  selector?: string;
  /** Lifecycle phase. */
  phase?: 'Pending' | 'Running' | 'Failed';
  /**
   * Generation last acted on.
   * @isLong
   */
  observedGeneration?: number;
  /** When the phase last changed. */
  lastTransitionTime?: Date;
  /** Conditions, such as Ready. */
  conditions?: Condition[];
}
`;
}

function controllerFile(k: KindSpec): string {
  const K = k.kind;
  const route = k.namespaced ? `apis/${k.group}/${k.version}/namespaces/{namespace}/${k.plural}` : `apis/${k.group}/${k.version}/${k.plural}`;
  const ns = k.namespaced ? '@Path() namespace: string, ' : '';
  const notImplemented = `throw new Error('not implemented');`;
  return `import { Body, Controller, Delete, Get, Patch, Path, Post, Put, Query, Route, Tags } from 'tsoa';
import type { Status } from '../../models/meta';
import type { ${K}, ${K}List } from '../../models/${k.group}/${K}';

@Route('${route}')
@Tags('${k.group}')
export class ${K}Controller extends Controller {
  /** list or watch objects of kind ${K} */
  @Get()
  public async list${K}(${ns}@Query() labelSelector?: string, @Query() fieldSelector?: string, @Query() limit?: number, @Query('continue') continueToken?: string, @Query() resourceVersion?: string): Promise<${K}List> {
    ${notImplemented}
  }

  /** read the specified ${K} */
  @Get('{name}')
  public async read${K}(${ns}@Path() name: string): Promise<${K}> {
    ${notImplemented}
  }

  /** create a ${K} */
  @Post()
  public async create${K}(${ns}@Body() body: ${K}, @Query() dryRun?: string, @Query() fieldManager?: string): Promise<${K}> {
    ${notImplemented}
  }

  /** replace the specified ${K} */
  @Put('{name}')
  public async replace${K}(${ns}@Path() name: string, @Body() body: ${K}, @Query() dryRun?: string): Promise<${K}> {
    ${notImplemented}
  }

  /** partially update the specified ${K} */
  @Patch('{name}')
  public async patch${K}(${ns}@Path() name: string, @Body() body: Partial<${K}>, @Query() dryRun?: string): Promise<${K}> {
    ${notImplemented}
  }

  /** delete a ${K} */
  @Delete('{name}')
  public async delete${K}(${ns}@Path() name: string, @Query() gracePeriodSeconds?: number): Promise<Status> {
    ${notImplemented}
  }
}
`;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2021',
    module: 'commonjs',
    moduleResolution: 'node',
    strict: true,
    experimentalDecorators: true,
    esModuleInterop: true,
    skipLibCheck: true,
    outDir: 'dist',
  },
  include: ['src'],
};

const TSOA_CONFIG = {
  entryFile: 'src/app.ts',
  noImplicitAdditionalProperties: 'throw-on-extras',
  controllerPathGlobs: ['src/controllers/**/*Controller.ts'],
  spec: { outputDirectory: 'build', specVersion: 3 },
  routes: { routesDir: 'build' },
};

/** Writes the tsoa project (replacing `dir`): tsconfig.json, tsoa.json, src/models, src/controllers. */
export function writeTsoaProject(dir: string, kinds: KindSpec[]): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src', 'models'), { recursive: true });
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  writeFileSync(join(dir, 'tsoa.json'), JSON.stringify(TSOA_CONFIG, null, 2));
  writeFileSync(join(dir, 'src', 'app.ts'), `// Entry point tsoa's config requires; the routes are found through controllerPathGlobs.\nexport {};\n`);
  writeFileSync(join(dir, 'src', 'models', 'meta.ts'), META);
  for (const k of kinds) {
    mkdirSync(join(dir, 'src', 'models', k.group), { recursive: true });
    mkdirSync(join(dir, 'src', 'controllers', k.group), { recursive: true });
    writeFileSync(join(dir, 'src', 'models', k.group, `${k.kind}.ts`), modelFile(k));
    writeFileSync(join(dir, 'src', 'controllers', k.group, `${k.kind}Controller.ts`), controllerFile(k));
  }
}
