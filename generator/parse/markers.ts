/**
 * The table of markers and tags kgen understands, where each may appear, and how its arguments
 * are read. Anything not in these tables is a diagnostic, never silently ignored.
 */
import { didYouMean, type DiagnosticBag } from '../diagnostics.js';
import type { DocTag } from './jsdoc.js';

/** Where a tag was written. */
export type Placement = 'resource' | 'interface' | 'field' | 'alias';

const PLACEMENT_TEXT: Record<Placement, string> = {
  resource: 'on a resource interface (one with @kgen:resource)',
  interface: 'on an interface without @kgen:resource',
  field: 'on a field',
  alias: 'on a type alias',
};

interface TagSpec {
  on: Placement[];
  /** Allowed key=value arguments; `true` marks required ones. */
  args?: Record<string, boolean>;
  /** Allowed bare words (e.g. `status`, `scale`), or 'any' for one free value. */
  positional?: readonly string[] | 'any';
  example: string;
}

const RESOURCE_ONLY: Placement[] = ['resource'];
const VALUE_PLACES: Placement[] = ['field', 'alias'];

export const MARKERS: Record<string, TagSpec> = {
  'kgen:resource': {
    on: ['resource', 'interface'],
    args: { scope: false, shortNames: false, categories: false, plural: false, singular: false },
    example: '@kgen:resource scope=Namespaced shortNames=wd categories=all',
  },
  'kgen:subresource': {
    on: RESOURCE_ONLY,
    positional: ['status', 'scale', 'custom'],
    args: { specReplicasPath: false, statusReplicasPath: false, labelSelectorPath: false, name: false, verbs: false },
    example: '@kgen:subresource scale specReplicasPath=.spec.replicas statusReplicasPath=.status.replicas',
  },
  'kgen:printcolumn': {
    on: RESOURCE_ONLY,
    args: { name: true, type: true, jsonPath: true, description: false, format: false, priority: false },
    example: '@kgen:printcolumn name=Replicas type=integer jsonPath=.spec.replicas',
  },
  'kgen:selectableField': { on: RESOURCE_ONLY, args: { jsonPath: true }, example: '@kgen:selectableField jsonPath=.spec.color' },
  'kgen:storageversion': { on: RESOURCE_ONLY, example: '@kgen:storageversion' },
  'kgen:unservedversion': { on: RESOURCE_ONLY, example: '@kgen:unservedversion' },
  'kgen:deprecatedversion': { on: RESOURCE_ONLY, args: { warning: false }, example: '@kgen:deprecatedversion warning="v1beta1 Widget is deprecated; use v1"' },
  'kgen:virtual': { on: RESOURCE_ONLY, example: '@kgen:virtual' },
  'kgen:listType': { on: VALUE_PLACES, positional: ['atomic', 'set', 'map'], example: '@kgen:listType map' },
  'kgen:listMapKey': { on: VALUE_PLACES, positional: 'any', example: '@kgen:listMapKey name' },
  'kgen:preserveUnknownFields': { on: VALUE_PLACES, example: '@kgen:preserveUnknownFields' },
  'kgen:protobuf': { on: ['field'], positional: 'any', example: '@kgen:protobuf 3' },
  'kgen:validation': {
    on: ['resource', 'interface', 'field', 'alias'],
    args: { rule: true, message: false, messageExpression: false, reason: false, fieldPath: false },
    example: '@kgen:validation rule="self.minReplicas <= self.maxReplicas" message="minReplicas must not exceed maxReplicas"',
  },
  'kgen:immutable': { on: ['resource', 'interface', 'field', 'alias'], example: '@kgen:immutable' },
  'kgen:allowBreakingChange': {
    on: ['resource', 'interface', 'field', 'alias'],
    args: { reason: true },
    example: '@kgen:allowBreakingChange reason="v1alpha1 has no users yet"',
  },
};

/** OpenAPI value tags written without the kgen: prefix, as in JSON Schema. */
export const VALUE_TAGS = {
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  multipleOf: 'number',
  minLength: 'count',
  maxLength: 'count',
  pattern: 'regex',
  format: 'word',
  minItems: 'count',
  maxItems: 'count',
  uniqueItems: 'flag',
  minProperties: 'count',
  maxProperties: 'count',
  default: 'json',
  example: 'json',
  deprecated: 'text',
} as const;

export type ValueTagName = keyof typeof VALUE_TAGS;

/** Documentation-only tags that are allowed anywhere and carry no meaning for the schema. */
const DOC_TAGS = ['see', 'remarks', 'since'];

const ALL_NAMES = [...Object.keys(MARKERS).map((k) => `@${k}`), ...Object.keys(VALUE_TAGS).map((k) => `@${k}`)];

export interface MarkerArgs {
  positional: string[];
  named: Map<string, string>;
}

/** Splits `a=1 b="two words" word` into named and positional arguments. */
export function splitArgs(text: string): MarkerArgs | { error: string } {
  const named = new Map<string, string>();
  const positional: string[] = [];
  // key="quoted value", key=unquoted (may itself contain quotes, as JSONPath filters do),
  // "quoted positional" or a bare word.
  const re = /\s*(?:([A-Za-z][\w-]*)=(?:"((?:[^"\\]|\\.)*)"(?=\s|$)|(\S*))|("((?:[^"\\]|\\.)*)")|(\S+))/y;
  let m: RegExpExecArray | null;
  let i = 0;
  while (i < text.length && (re.lastIndex = i, (m = re.exec(text)))) {
    if (m[0].trim() === '') break;
    i = re.lastIndex;
    if (m[1] !== undefined) {
      const value = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]!;
      if (named.has(m[1])) return { error: `"${m[1]}" is given twice` };
      named.set(m[1], value);
    } else if (m[4] !== undefined) {
      positional.push(m[5]!.replace(/\\(.)/g, '$1'));
    } else {
      positional.push(m[6]!);
    }
  }
  return { named, positional };
}

export function isKnownTag(name: string): boolean {
  return name in MARKERS || name in VALUE_TAGS || DOC_TAGS.includes(name);
}

/**
 * Checks a tag's name and placement, reporting KG001/KG002. Returns false when the tag must be
 * ignored by the caller because it was reported.
 */
export function checkTag(tag: DocTag, placement: Placement, diags: DiagnosticBag): boolean {
  if (DOC_TAGS.includes(tag.name)) return false;
  const marker = MARKERS[tag.name];
  if (!marker && !(tag.name in VALUE_TAGS)) {
    diags.add('KG001', tag.loc, { tag: `@${tag.name}`, suggestion: didYouMean(`@${tag.name}`, ALL_NAMES) });
    return false;
  }
  const allowed: Placement[] = marker ? marker.on : VALUE_PLACES;
  if (!allowed.includes(placement)) {
    diags.add('KG002', tag.loc, {
      tag: `@${tag.name}`,
      where: PLACEMENT_TEXT[placement],
      placement: `Write it ${allowed.map((p) => PLACEMENT_TEXT[p]).join(' or ')}.`,
    });
    return false;
  }
  return true;
}

/** Parses a marker's arguments against its spec, reporting KG003/KG005. */
export function readMarkerArgs(tag: DocTag, diags: DiagnosticBag): MarkerArgs | undefined {
  const spec = MARKERS[tag.name]!;
  const parsed = splitArgs(tag.text);
  if ('error' in parsed) {
    diags.add('KG003', tag.loc, { tag: `@${tag.name}`, problem: parsed.error, example: spec.example });
    return undefined;
  }
  let ok = true;
  for (const key of parsed.named.keys()) {
    if (!spec.args || !(key in spec.args)) {
      const known = Object.keys(spec.args ?? {});
      const hint = known.length ? didYouMean(key, known) : '; it takes no key=value arguments';
      diags.add('KG003', tag.loc, { tag: `@${tag.name}`, problem: `unknown argument "${key}"${hint}`, example: spec.example });
      ok = false;
    }
  }
  if (spec.positional === undefined && parsed.positional.length > 0) {
    diags.add('KG003', tag.loc, { tag: `@${tag.name}`, problem: `unexpected "${parsed.positional[0]}"`, example: spec.example });
    ok = false;
  } else if (Array.isArray(spec.positional)) {
    const allowed: readonly string[] = spec.positional;
    if (parsed.positional.length !== 1 || !allowed.includes(parsed.positional[0]!)) {
      const got = parsed.positional.join(' ') || 'nothing';
      diags.add('KG003', tag.loc, {
        tag: `@${tag.name}`,
        problem: `expected one of ${allowed.map((a) => `"${a}"`).join(', ')}, got "${got}"${didYouMean(parsed.positional[0] ?? '', allowed)}`,
        example: spec.example,
      });
      ok = false;
    }
  } else if (spec.positional === 'any' && parsed.positional.length === 0) {
    diags.add('KG005', tag.loc, { tag: `@${tag.name}`, argument: 'a value', example: spec.example });
    ok = false;
  }
  for (const [key, required] of Object.entries(spec.args ?? {})) {
    if (required && !parsed.named.has(key)) {
      diags.add('KG005', tag.loc, { tag: `@${tag.name}`, argument: `${key}=`, example: spec.example });
      ok = false;
    }
  }
  return ok ? parsed : undefined;
}

/** `a,b` → ['a','b']; empty entries dropped. */
export function listArg(value: string | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}
