/**
 * Loading and validating an audit Policy file (k8s.io/apiserver/pkg/audit/policy/reader.go and
 * pkg/apis/audit/validation). YAML or JSON; `audit.k8s.io/v1`, or the deprecated v1beta1 with a
 * warning. Every problem is collected and reported at once with its field path, as kube's
 * field.ErrorList does, so a bad file fails startup with a message naming what is wrong.
 *
 * Unlike kube's lenient decoder, unknown fields are errors: a misspelt selector (`userGroup:`)
 * would otherwise silently widen a rule.
 */
import { readFileSync } from 'node:fs';
import { yaml } from '../api/yaml.js';
import { AUDIT_API_VERSION, LEVELS, STAGES, type GroupResources, type Policy, type PolicyRule } from './types.js';

const SUPPORTED_API_VERSIONS = new Set([AUDIT_API_VERSION, 'audit.k8s.io/v1beta1']);
const POLICY_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'rules', 'omitStages', 'omitManagedFields']);
const RULE_FIELDS = new Set(['level', 'users', 'userGroups', 'verbs', 'resources', 'namespaces', 'nonResourceURLs', 'omitStages', 'omitManagedFields']);
const GROUP_RESOURCE_FIELDS = new Set(['group', 'resources', 'resourceNames']);
/** A policy file is small; this bounds parsing work on a wrong path (e.g. a large binary). */
const MAX_POLICY_BYTES = 1024 * 1024;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A policy that could not be loaded; `errors` lists every problem with its field path. */
export class AuditPolicyError extends Error {
  constructor(
    readonly source: string,
    readonly errors: readonly string[],
  ) {
    super(`invalid audit policy ${source}: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`);
    this.name = 'AuditPolicyError';
  }
}

export interface LoadPolicyOptions {
  /** Where deprecation warnings go. */
  warn?: (message: string) => void;
}

/** Reads, parses and validates a policy file (kube's LoadPolicyFromFile). */
export function loadPolicyFile(path: string, opts: LoadPolicyOptions = {}): Policy {
  let text: string;
  try {
    const bytes = readFileSync(path);
    if (bytes.length > MAX_POLICY_BYTES) throw new Error(`file is larger than ${MAX_POLICY_BYTES} bytes`);
    text = bytes.toString('utf8');
  } catch (err) {
    throw new AuditPolicyError(JSON.stringify(path), [`failed to read file: ${(err as Error).message}`]);
  }
  return parsePolicy(text, { ...opts, source: JSON.stringify(path) });
}

/** Parses and validates policy text (YAML or JSON; kube's LoadPolicyFromBytes). */
export function parsePolicy(text: string, opts: LoadPolicyOptions & { source?: string } = {}): Policy {
  const source = opts.source ?? '<input>';
  let doc: unknown;
  try {
    doc = yaml().parse(text, { maxAliasCount: 100, uniqueKeys: true });
  } catch (err) {
    throw new AuditPolicyError(source, [`failed decoding: ${(err as Error).message.split('\n')[0]}`]);
  }
  const errors = validatePolicy(doc);
  if (errors.length > 0) throw new AuditPolicyError(source, errors);
  const policy = doc as Policy;
  if (policy.apiVersion !== AUDIT_API_VERSION) {
    opts.warn?.(`"${policy.apiVersion}" is deprecated and will be removed in a future release, use "${AUDIT_API_VERSION}" instead`);
  }
  return policy;
}

/** Every problem with a decoded policy document, as `path: message` lines; empty when valid. */
export function validatePolicy(doc: unknown): string[] {
  if (!isObject(doc)) return ['failed decoding: the policy must be an object with apiVersion, kind and rules'];
  const errors: string[] = [];
  unknownFields(doc, POLICY_FIELDS, '', errors);
  if (doc.kind !== 'Policy') errors.push(`kind: Unsupported value: ${JSON.stringify(doc.kind ?? '')}: supported values: "Policy"`);
  if (typeof doc.apiVersion !== 'string' || !SUPPORTED_API_VERSIONS.has(doc.apiVersion)) {
    errors.push(`apiVersion: Unsupported value: ${JSON.stringify(doc.apiVersion ?? '')}: supported values: ${[...SUPPORTED_API_VERSIONS].map((v) => `"${v}"`).join(', ')}`);
  }
  if (doc.metadata !== undefined && doc.metadata !== null && !isObject(doc.metadata)) errors.push('metadata: Invalid value: must be an object');
  validateStages(doc.omitStages, 'omitStages', errors);
  validateBool(doc.omitManagedFields, 'omitManagedFields', errors);
  if (!Array.isArray(doc.rules)) {
    errors.push(doc.rules === undefined || doc.rules === null ? 'loaded illegal policy with 0 rules' : 'rules: Invalid value: must be a list');
  } else {
    if (doc.rules.length === 0) errors.push('loaded illegal policy with 0 rules');
    doc.rules.forEach((rule, i) => validateRule(rule, `rules[${i}]`, errors));
  }
  return errors;
}

function validateRule(rule: unknown, path: string, errors: string[]): void {
  if (!isObject(rule)) {
    errors.push(`${path}: Invalid value: must be an object`);
    return;
  }
  unknownFields(rule, RULE_FIELDS, `${path}.`, errors);
  if (rule.level === undefined || rule.level === null || rule.level === '') errors.push(`${path}.level: Required value`);
  else if (!(LEVELS as readonly unknown[]).includes(rule.level)) {
    errors.push(`${path}.level: Unsupported value: ${JSON.stringify(rule.level)}: supported values: ${LEVELS.map((l) => `"${l}"`).join(', ')}`);
  }
  for (const field of ['users', 'userGroups', 'verbs', 'namespaces'] as const) validateStrings(rule[field], `${path}.${field}`, errors);
  if (validateStrings(rule.nonResourceURLs, `${path}.nonResourceURLs`, errors)) validateNonResourceURLs(rule.nonResourceURLs as string[] | undefined, path, errors);
  validateResources(rule.resources, `${path}.resources`, errors);
  validateStages(rule.omitStages, `${path}.omitStages`, errors);
  validateBool(rule.omitManagedFields, `${path}.omitManagedFields`, errors);
  const r = rule as Partial<PolicyRule>;
  if (nonEmpty(r.nonResourceURLs) && (nonEmpty(r.resources) || nonEmpty(r.namespaces))) {
    errors.push(`${path}.nonResourceURLs: Invalid value: ${JSON.stringify(r.nonResourceURLs)}: rules cannot apply to both regular resources and non-resource URLs`);
  }
}

function validateNonResourceURLs(urls: string[] | undefined, path: string, errors: string[]): void {
  (urls ?? []).forEach((url, i) => {
    if (url === '*') return;
    const at = `${path}.nonResourceURLs[${i}]: Invalid value: ${JSON.stringify(url)}`;
    if (!url.startsWith('/')) errors.push(`${at}: non-resource URL rules must begin with a '/' character`);
    if (url !== '' && url.slice(0, -1).includes('*')) errors.push(`${at}: non-resource URL wildcards '*' must be the final character of the rule`);
  });
}

function validateResources(value: unknown, path: string, errors: string[]): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) {
    errors.push(`${path}: Invalid value: must be a list`);
    return;
  }
  value.forEach((gr, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(gr)) {
      errors.push(`${at}: Invalid value: must be an object`);
      return;
    }
    unknownFields(gr, GROUP_RESOURCE_FIELDS, `${at}.`, errors);
    if (gr.group !== undefined && gr.group !== null && typeof gr.group !== 'string') errors.push(`${at}.group: Invalid value: must be a string`);
    else if (typeof gr.group === 'string' && gr.group !== '' && (gr.group.length > 253 || !DNS1123_SUBDOMAIN.test(gr.group))) {
      errors.push(`${at}.group: Invalid value: ${JSON.stringify(gr.group)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`);
    }
    const okResources = validateStrings(gr.resources, `${at}.resources`, errors);
    const okNames = validateStrings(gr.resourceNames, `${at}.resourceNames`, errors);
    const { resources, resourceNames } = gr as GroupResources;
    if (okResources && okNames && nonEmpty(resourceNames) && !nonEmpty(resources)) {
      errors.push(`${at}.resourceNames: Invalid value: ${JSON.stringify(resourceNames)}: using resourceNames requires at least one resource`);
    }
  });
}

function validateStages(value: unknown, path: string, errors: string[]): void {
  if (!validateStrings(value, path, errors)) return;
  ((value as string[] | undefined) ?? []).forEach((stage, i) => {
    if (!(STAGES as readonly string[]).includes(stage)) errors.push(`${path}[${i}]: Invalid value: ${JSON.stringify(stage)}: allowed stages are ${STAGES.join(',')}`);
  });
}

/** Checks an optional list of strings; false when it is not one. */
function validateStrings(value: unknown, path: string, errors: string[]): boolean {
  if (value === undefined || value === null) return true;
  if (!Array.isArray(value)) {
    errors.push(`${path}: Invalid value: must be a list of strings`);
    return false;
  }
  const bad = value.findIndex((v) => typeof v !== 'string');
  if (bad >= 0) {
    errors.push(`${path}[${bad}]: Invalid value: ${JSON.stringify(value[bad])}: must be a string`);
    return false;
  }
  return true;
}

function validateBool(value: unknown, path: string, errors: string[]): void {
  if (value !== undefined && value !== null && typeof value !== 'boolean') errors.push(`${path}: Invalid value: ${JSON.stringify(value)}: must be a boolean`);
}

function unknownFields(obj: Record<string, unknown>, known: Set<string>, prefix: string, errors: string[]): void {
  for (const key of Object.keys(obj)) if (!known.has(key)) errors.push(`${prefix}${key}: Unknown field`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmpty(list: readonly unknown[] | undefined): boolean {
  return Array.isArray(list) && list.length > 0;
}
