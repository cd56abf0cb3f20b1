/**
 * The limits a cluster enforces when a CRD is applied, checked when it is generated instead:
 * - CEL cost (KG080, KG081): kube's static estimate of each rule (runtime/validation/cel-cost.ts),
 *   per rule and per version, located at the rule with the unbounded fields to limit;
 * - manifest size (KG082, KG083): 262,144 bytes of `kubectl apply`'s last-applied annotation,
 *   1.5 MiB of etcd's request limit;
 * - everything else kube-apiserver's CRD validation refuses (KG084), from the server's own
 *   validateCRD (runtime/apiextensions), mapped back to the definition it comes from.
 *
 * This check reads the emitted CRD manifests: they are what a cluster sees. What the server's
 * validation and the cost estimate find depends on a manifest's text alone, so a --watch session
 * keeps it per text (LimitsCache) and an edit re-checks only the CRDs whose manifest changed;
 * locating the findings in the sources is redone every time, since lines move.
 */
import { parse as parseYaml } from 'yaml';
import type { DiagnosticBag } from '../diagnostics.js';
import type { EmittedFile } from '../emit/emitted.js';
import type { ApiModel, Kind, NamedType, Schema, SourceLocation } from '../model.js';
import { effective } from '../evolve/schema-diff.js';
import { validateCRD } from '../../runtime/apiextensions/validation.js';
import { SchemaFactsCache } from '../../runtime/apiextensions/schema-facts.js';
import { CREATE_OPTIONS } from '../../runtime/apiextensions/update-options.js';
import type { CustomResourceDefinition } from '../../runtime/apiextensions/types.js';
import { costErrorMessage, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT, type RuleCost, type SchemaCost } from '../../runtime/validation/cel-cost.js';
import type { FieldError } from '../../runtime/validation/index.js';

/** The last-applied-configuration annotation client-side `kubectl apply` writes (256 KiB). */
export const APPLY_ANNOTATION_LIMIT = 262_144;
/** etcd's default --max-request-bytes: kube-apiserver cannot store a larger object. */
export const ETCD_REQUEST_LIMIT = 1.5 * 1024 * 1024;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const fmt = (n: number) => n.toLocaleString('en-US');

/** What the checks of one CRD manifest found, by the manifest's text (see the contract above). */
interface Findings {
  /** The cost estimate of each version's schema, by version name. */
  costs: Map<string, SchemaCost>;
  /** validateCRD's errors on the manifest as created. */
  errors: FieldError[];
}

/** Kept by a --watch session: the findings of the CRD manifests of the last generation, by text. */
export type LimitsCache = Map<string, Findings>;

export function checkLimits(model: ApiModel, files: EmittedFile[], diags: DiagnosticBag, cache?: LimitsCache): void {
  // Keyed by the whole manifest text (hashing it is not free): kept only for a --watch session.
  const found: LimitsCache | undefined = cache ? new Map() : undefined;
  for (const file of files) {
    if (!file.path.startsWith('crds/') || !file.path.endsWith('.yaml')) continue;
    const crd = (file.value ?? parseYaml(file.content)) as CustomResourceDefinition;
    const group = crd.spec?.group;
    const kindName = crd.spec?.names?.kind;
    const versionsOf = model.groups.find((g) => g.name === group)?.versions ?? [];
    const kindIn = (version: string) => versionsOf.find((v) => v.name === version)?.kinds.find((k) => k.name === kindName);
    const types = new Map<string, Map<string, NamedType>>();
    const typesIn = (version: string) => {
      let byName = types.get(version);
      if (!byName) types.set(version, (byName = new Map((versionsOf.find((v) => v.name === version)?.types ?? []).map((t) => [t.name, t]))));
      return byName;
    };
    const storage = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0];
    const storageKind = storage ? kindIn(storage.name) : undefined;
    if (!storageKind) continue;
    const findings = cache?.get(file.content) ?? findingsOf(crd);
    found?.set(file.content, findings);
    checkSize(file, storageKind.loc, diags);
    crd.spec.versions.forEach((version) => {
      const kind = kindIn(version.name);
      const schema = version.schema?.openAPIV3Schema as Json | undefined;
      if (!kind || !schema) return;
      checkCost(kind, typesIn(version.name), schema, findings.costs.get(version.name)!, diags);
    });
    for (const err of findings.errors) {
      if (/exceeds budget|contributed to estimated rule cost/.test(err.message)) continue; // KG080/KG081
      const m = /^spec\.versions\[(\d+)\]\.schema\.openAPIV3Schema\.?(.*)$/.exec(err.field);
      const version = m ? crd.spec.versions[Number(m[1])] : undefined;
      const kind = (version && kindIn(version.name)) ?? storageKind;
      const loc = m && version ? locate(kind, typesIn(version.name), m[2]!) : kind.loc;
      diags.add('KG084', loc, { subject: `${group}/${version?.name ?? storage!.name} ${kind.name}`, field: err.field, message: err.message });
    }
  }
  if (cache && found) {
    cache.clear();
    for (const [text, findings] of found) cache.set(text, findings);
  }
}

function findingsOf(crd: CustomResourceDefinition): Findings {
  // One walk per schema answers the validation's questions; the cost estimate is made once, for
  // both the validation and KG080/KG081.
  const facts = new SchemaFactsCache();
  const costs = new Map<string, SchemaCost>();
  for (const version of crd.spec.versions) {
    const schema = version.schema?.openAPIV3Schema as Json | undefined;
    if (schema) costs.set(version.name, facts.of(schema).cost());
  }
  const storage = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0];
  // As the server sees it on create: the storage version is the one stored version.
  const created = { ...crd, status: { ...(crd.status ?? {}), storedVersions: storage ? [storage.name] : [] } } as CustomResourceDefinition;
  return { costs, errors: validateCRD(created, CREATE_OPTIONS, undefined, facts) };
}

function checkSize(file: EmittedFile, loc: SourceLocation, diags: DiagnosticBag): void {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: a short text needs no counting (counting
  // flattens the emitter's concatenated string here).
  if (file.content.length * 3 <= APPLY_ANNOTATION_LIMIT) return;
  const size = Buffer.byteLength(file.content);
  if (size > ETCD_REQUEST_LIMIT) diags.add('KG083', loc, { file: file.path, size: fmt(size) });
  else if (size > APPLY_ANNOTATION_LIMIT) diags.add('KG082', loc, { file: file.path, size: fmt(size) });
}

function checkCost(kind: Kind, types: Map<string, NamedType>, schema: Json, cost: SchemaCost, diags: DiagnosticBag): void {
  const subject = `${kind.group}/${kind.version} ${kind.name}`;
  for (const rule of cost.rules) {
    if (rule.expressionCost <= STATIC_ESTIMATED_COST_LIMIT) continue;
    diags.add('KG080', locate(kind, types, rule.schemaPath), {
      subject,
      rule: rule.rule,
      path: rule.jsonPath,
      message: costErrorMessage('estimated rule cost', rule.expressionCost, STATIC_ESTIMATED_COST_LIMIT),
      cost: fmt(rule.expressionCost),
      maxCost: fmt(rule.maxCost),
      cardinality: fmt(rule.cardinality),
      bounds: bounds(schema, rule),
    });
  }
  if (cost.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    const worst = [...cost.rules].sort((a, b) => b.expressionCost - a.expressionCost)[0]!;
    diags.add('KG081', kind.loc, {
      subject,
      message: costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', cost.total, STATIC_ESTIMATED_CRD_COST_LIMIT),
      worst: `"${worst.rule}" on ${worst.jsonPath} (${fmt(worst.expressionCost)})`,
      bounds: bounds(schema, worst),
    });
  }
}

/** `add @maxItems to .spec.foo, @maxLength to .spec.foo[*]`: the unbounded values a rule walks. */
function bounds(schema: Json, rule: RuleCost): string {
  const tags = rule.unbounded.map((path) => {
    const node = schemaAt(schema, path);
    const tag = node?.type === 'array' ? '@maxItems' : node?.type === 'string' ? '@maxLength' : '@maxProperties';
    return `${tag} to ${path}`;
  });
  return tags.length ? `add ${tags.join(', ')}` : 'simplify the rule';
}

/** The schema node at a JSON path of cel-cost (`.spec.foo[*]`). */
function schemaAt(root: Json, path: string): Json | undefined {
  let node: Json | undefined = root;
  for (const step of path.match(/\.[^.[]+|\[\*\]/g) ?? []) {
    if (!node) return undefined;
    if (step === '[*]') node = isObject(node.items) ? node.items : isObject(node.additionalProperties) ? node.additionalProperties : undefined;
    else node = isObject(node.properties) && isObject(node.properties[step.slice(1)]) ? (node.properties[step.slice(1)] as Json) : undefined;
  }
  return node;
}

/**
 * The model definition behind a path in a version's openAPIV3Schema
 * (`properties[spec].properties[parts].items.x-kubernetes-validations[0].rule`): the rule's marker,
 * else the field, else the kind.
 */
function locate(kind: Kind, types: Map<string, NamedType>, schemaPath: string): SourceLocation {
  let node: Schema = kind.schema;
  let loc = kind.loc;
  for (const step of schemaPath.match(/properties\[[^\]]+\]|items|additionalProperties|x-kubernetes-validations\[\d+\]/g) ?? []) {
    const here = effective(node, types);
    if (step.startsWith('properties[')) {
      const name = step.slice('properties['.length, -1);
      const prop = here.type === 'object' ? here.properties.find((p) => p.name === name) : undefined;
      if (!prop) return loc;
      node = prop.schema;
      loc = prop.loc;
    } else if (step === 'items' && here.type === 'array') {
      node = here.items;
    } else if (step === 'additionalProperties' && here.type === 'map') {
      node = here.values;
    } else if (step.startsWith('x-kubernetes-validations[')) {
      const rule = here.validations?.[Number(step.slice('x-kubernetes-validations['.length, -1))];
      return rule?.loc ?? loc;
    } else {
      return loc;
    }
  }
  return loc;
}
