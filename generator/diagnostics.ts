/**
 * The one table of generator diagnostics. Codes are stable: tests, docs and users refer to them.
 * Diagnostics are collected, never thrown, so a user sees every problem at once.
 */
import type { SourceLocation } from './model.js';

export type Severity = 'error' | 'warning';

interface DiagnosticDef {
  severity: Severity;
  /** `{name}` placeholders are filled from the diagnostic's arguments. */
  message: string;
  hint: string;
}

export const DIAGNOSTICS = {
  // Markers and tags (KG00x)
  KG001: {
    severity: 'error',
    message: 'unknown marker or tag "{tag}"{suggestion}',
    hint: 'Use one of the markers listed in the README under "The input language"; markers are case-sensitive.',
  },
  KG002: {
    severity: 'error',
    message: '"{tag}" is not allowed {where}',
    hint: '{placement}',
  },
  KG003: {
    severity: 'error',
    message: 'invalid argument to "{tag}": {problem}',
    hint: 'Write arguments as key=value pairs, e.g. {example}',
  },
  KG004: {
    severity: 'error',
    message: 'invalid value for "{tag}": {problem}',
    hint: '{expect}',
  },
  KG005: {
    severity: 'error',
    message: '"{tag}" needs "{argument}"',
    hint: 'For example: {example}',
  },
  // Types (KG01x)
  KG010: {
    severity: 'error',
    message: 'type "{type}" cannot be represented in an API schema',
    hint: '{hint}',
  },
  KG011: {
    severity: 'error',
    message: 'cannot resolve type "{type}"{detail}',
    hint: 'Declare it as an interface or type alias in this version folder, or import a well-known type from \'kgen\' ({wellKnown}).',
  },
  KG012: {
    severity: 'error',
    message: 'generic type "{type}" is not supported',
    hint: 'Only Array<T> (or T[]), ReadonlyArray<T>, Record<K, T>, Partial, Required, Pick and Omit may take type arguments; declare a concrete interface instead.',
  },
  KG013: {
    severity: 'error',
    message: 'union type "{type}" is not supported',
    hint: 'Use a union of literals of one type (\'a\' | \'b\', 1 | 2: an enum), "T | null" (nullable), or a discriminated union of interfaces (each with its own literal in a common field such as type).',
  },
  KG014: {
    severity: 'error',
    message: 'resource "{kind}" must be exported',
    hint: 'Write "export interface {kind}".',
  },
  KG015: {
    severity: 'error',
    message: 'field "{field}" of resource "{kind}" must have type {expected}',
    hint: '"apiVersion" and "kind" are strings and "metadata" is ObjectMeta from \'kgen\'; they may also be left out, as they are implied.',
  },
  KG016: {
    severity: 'error',
    message: 'type "{type}" refers to itself through "{path}"',
    hint: 'Recursive types cannot be written as a structural schema; cut the cycle with @kgen:preserveUnknownFields on one field.',
  },
  KG017: {
    severity: 'error',
    message: '{problem}',
    hint: 'Map keys must be strings: use Record<string, T>.',
  },
  KG018: {
    severity: 'error',
    message: 'type "{type}" clashes with {other}',
    hint: 'Type names are unique in a group/version (declarations are not merged), and "<Kind>List" is reserved for the list of each kind; rename one.',
  },
  KG019: {
    severity: 'error',
    message: 'integer {literal}{where} cannot be kept exactly: as a float64 it is {rounded}',
    hint: 'kgen, kube clients that read JSON and OpenAPI tools hold numbers as float64, exact for whole numbers up to 2^53 (9007199254740992); write a smaller number, or hold such a value in a string.',
  },
  // Layout and names (KG02x)
  KG020: {
    severity: 'error',
    message: 'invalid API group folder "{group}": {problem}',
    hint: 'A group folder is a lower-case DNS subdomain with at least one dot, such as "widgets.example.com", or "core" for the legacy core group.',
  },
  KG021: {
    severity: 'error',
    message: 'invalid version folder "{version}"',
    hint: 'Versions follow Kubernetes\' form: v1, v2, v1beta1, v2alpha3.',
  },
  KG022: {
    severity: 'error',
    message: 'kind "{kind}" is declared more than once in {groupVersion} (also at {other})',
    hint: 'Each kind appears once per group/version; rename or remove one.',
  },
  KG023: {
    severity: 'error',
    message: '{what} "{name}" is used by both "{kind}" and "{other}" in group "{group}"',
    hint: 'Plurals, singulars and short names must be unique in a group; override with plural=, singular= or shortNames=.',
  },
  KG024: {
    severity: 'error',
    message: '{what} path "{path}" does not name a field of "{kind}"{detail}',
    hint: 'Paths start with "." and name fields, e.g. .spec.replicas or .status.conditions[0].type.',
  },
  KG025: {
    severity: 'error',
    message: '{problem}',
    hint: '{hint}',
  },
  KG026: {
    severity: 'error',
    message: 'kind "{kind}" appears in versions {versions} of "{group}" but {problem}',
    hint: 'Mark exactly one version of the kind with @kgen:storageversion.',
  },
  KG027: {
    severity: 'error',
    message: 'file is neither inside an <apis>/<group>/<version>/ folder nor in a shared folder',
    hint: 'Move it to <apis>/<group>/<version>/, e.g. apis/widgets.example.com/v1/widget.ts, or, for types several versions import, to a shared folder such as apis/common/.',
  },
  KG028: {
    severity: 'error',
    message: 'TypeScript syntax error: {message}',
    hint: 'Fix the syntax; kgen reads the file as TypeScript.',
  },
  KG029: {
    severity: 'error',
    message: 'no API files found under "{dir}"{why}',
    hint: 'Put API types in <apis>/<group>/<version>/*.ts, e.g. apis/widgets.example.com/v1/widget.ts.',
  },
  // Idiomatic TypeScript: unions, enums, maps, utility types, shared types (KG03x)
  KG030: {
    severity: 'error',
    message: 'union "{type}" of object types has no common discriminator',
    hint: "Give every member ({members}) a required field with its own string literal, e.g. interface HttpTarget { type: 'http'; url: string } and interface TcpTarget { type: 'tcp'; port: int32 }; kgen then makes the union an object checked by kube's CEL rules.",
  },
  KG031: {
    severity: 'error',
    message: 'type "{type}" from {home} has the same name as "{type}" from {other}',
    hint: 'A version names each type once (its schemas and its TypeScript model file); an import alias renames only the local binding. Rename one of the declarations.',
  },
  KG032: {
    severity: 'error',
    message: 'enum "{type}" cannot be represented in an API schema: {problem}',
    hint: "Give every member a literal value, all strings (enum Colour { Red = 'red' }) or all numbers (enum Level { Low = 1, High = 2 }).",
  },
  KG033: {
    severity: 'error',
    message: 'discriminated union "{type}" cannot be one schema: {problem}',
    hint: '{hint}',
  },
  KG034: {
    severity: 'error',
    message: 'index signature in "{type}" beside named fields',
    hint: 'A structural schema is either an object with named fields or a map: make the map a field of its own (labels?: Record<string, string>), or make the whole type the index signature alone.',
  },
  KG035: {
    severity: 'error',
    message: 'utility type "{type}" cannot be resolved: {problem}',
    hint: 'Partial, Required, Pick and Omit take an interface and string-literal keys, e.g. {example}.',
  },
  KG036: {
    severity: 'error',
    message: 'resource "{kind}" is declared in the shared folder "{folder}"',
    hint: 'A resource belongs to one group and version: move it to <apis>/<group>/<version>/; shared folders hold the types resources import.',
  },
  KG037: {
    severity: 'error',
    message: 'field name "{name}" cannot be used',
    hint: "JavaScript reads and writes {name} as an object's prototype: generated conversions, validators and clients would set the prototype instead of the field. Name the field otherwise.",
  },
  // Versions and conversion (KG04x)
  KG040: {
    severity: 'error',
    message: '{groupVersion} field "{field}" {problem}: it needs the conversion function {function}',
    hint: 'Export function {function}(src, out): void from {file}. kgen copies every field that corresponds by name and type, then calls it to convert the rest; a field the other version cannot hold can be kept in the <group>/conversion-data annotation with the scope passed as a third parameter (README: "Versions and conversion").',
  },
  KG041: {
    severity: 'error',
    message: 'conversion function "{function}" does not convert any type pair kgen generates{suggestion}',
    hint: '{expected}',
  },
  KG042: {
    severity: 'error',
    message: '"{tag}" has no effect: kind "{kind}" is declared only in {groupVersion}',
    hint: 'Version markers apply to a kind declared in several versions of its group (controller-gen ignores them on a single-version kind); remove it, or declare the kind in another version too.',
  },
  KG043: {
    severity: 'error',
    message: 'kind "{kind}" of "{group}" is not served in any version (every version is marked @kgen:unservedversion)',
    hint: 'At least one version of a kind must be served; remove @kgen:unservedversion from one of them.',
  },
  KG044: {
    severity: 'error',
    message: 'kind "{kind}" has {what} "{value}" in {version} but "{storageValue}" in {storageVersion} (its storage version)',
    hint: 'The versions of a kind are one resource: they share its plural, singular and scope. Make them the same.',
  },
  // CEL validation rules (KG05x)
  KG050: {
    severity: 'error',
    message: '{what} of "{tag}" does not compile: {problem}',
    hint: 'Rules are CEL expressions over self (the value the marker is written on) and, for transition rules, oldSelf; fields are selected as self.field (README: "Validation rules").',
  },
  KG051: {
    severity: 'error',
    message: '"{tag}" uses oldSelf under {where}, where an old value cannot be correlated',
    hint: 'Transition rules (oldSelf) work on the object root, on fields, map values and items of @kgen:listType map lists; move the rule to the list itself, or make the list a map list.',
  },
  // API evolution: changes against a baseline (KG06x-KG07x, generator/evolve)
  KG060: {
    severity: 'error',
    message: '{subject} is no longer served',
    hint: 'Never remove a served version or kind while clients use it: mark it @kgen:deprecatedversion, keep serving it through the deprecation period, then remove it (API change guidelines, api_changes.md "Deprecation"). Accept a deliberate removal, e.g. of an alpha version, with @kgen:allowBreakingChange reason="…" on the kind.',
  },
  KG061: {
    severity: 'error',
    message: '{subject}: field {path} was removed',
    hint: 'Removing a field breaks clients that set it and drops stored data: keep it (say it is deprecated in its description), or add a new version without it (API change guidelines, api_changes.md "On compatibility").',
  },
  KG062: {
    severity: 'error',
    message: '{subject}: {path} changed type from {old} to {new}',
    hint: 'A field keeps its type and format for the life of a version: add a new field with the new type, or add a new version (api_changes.md "On compatibility").',
  },
  KG063: {
    severity: 'error',
    message: '{subject}: {path} was optional and is now required',
    hint: 'Existing objects and clients leave it out: keep it optional and give it a default with @default instead (api_changes.md "Adding a field").',
  },
  KG064: {
    severity: 'error',
    message: '{subject}: {path} no longer allows {values}',
    hint: 'Stored objects and clients may hold the removed values: keep them (say they are deprecated in the description), or add a new version.',
  },
  KG065: {
    severity: 'error',
    message: '{subject}: {path}: validation tightened: {detail}',
    hint: 'Tighter validation refuses objects that were valid, including updates of stored ones: loosen it back, or add a new version (API conventions: validation may only be loosened within a version).',
  },
  KG066: {
    severity: 'error',
    message: '{subject}: {path}: new validation rule "{rule}" applies to existing objects',
    hint: 'A new rule refuses updates of stored objects that break it. Write it ratcheting-safe, as a transition rule that holds while the value is unchanged (rule="self == oldSelf || (…)"), or add it in a new version.',
  },
  KG067: {
    severity: 'error',
    message: '{subject}: {path}: {detail}',
    hint: 'listType and list map keys decide how server-side apply merges the list and who owns its items: changing them breaks managed fields of stored objects. Add a new field or a new version instead.',
  },
  KG068: {
    severity: 'error',
    message: '{subject}: {detail}',
    hint: 'Scope, plural and short names are part of every URL, RBAC rule and kubectl command that names the kind: keep them, or add a new kind or group.',
  },
  KG069: {
    severity: 'error',
    message: '{subject}: storage version changed from {old} to {new}',
    hint: 'Objects already stored as {old} stay so until rewritten: keep {old} in the API, run `kgen migrate-storage` against every cluster, then accept the change with @kgen:allowBreakingChange reason="storage migrated" on the kind.',
  },
  KG070: {
    severity: 'error',
    message: '{subject}: printer column "{column}" reads {new} instead of {old}',
    hint: 'Scripts read columns by name (kubectl get -o custom-columns, dashboards): add a column with a new name instead of changing what an existing one shows.',
  },
  KG071: {
    severity: 'error',
    message: '{subject}: new required field {path} has no default',
    hint: 'Existing objects and clients do not set it: make it optional, or give it a default with @default (api_changes.md "Adding a field").',
  },
  KG072: {
    severity: 'error',
    message: '{subject}: {path}: default changed from {old} to {new}',
    hint: 'Clients that leave the field out rely on its default: keep the default, or add a new version (api_changes.md "Defaulting").',
  },
  KG073: {
    severity: 'warning',
    message: '{subject}: new required field {path} has a default ({value})',
    hint: 'Stored objects get the default when read, but clients built before it do not send it; prefer an optional field with a default (api_changes.md "Adding a field").',
  },
  KG074: {
    severity: 'warning',
    message: '{subject}: {path}: validation loosened: {detail}',
    hint: 'Clients built against the older version, or a server rolled back to it, may refuse values this one accepts; make sure nothing depends on the old bound.',
  },
  // Limits a cluster enforces on a CRD, checked at generate time (KG08x, generator/check/limits.ts)
  KG080: {
    severity: 'error',
    message: '{subject}: rule "{rule}" on {path}: {message}; estimated {cost} = {maxCost} per evaluation × {cardinality} evaluations, over the 10,000,000 kube-apiserver allows',
    hint: 'A cluster refuses this CRD (StaticEstimatedCostLimit). Bound what the rule walks: {bounds} (README: "Limits checked at generate time").',
  },
  KG081: {
    severity: 'error',
    message: '{subject}: {message}; the most expensive rule is {worst}',
    hint: 'A cluster refuses this CRD (StaticEstimatedCRDCostLimit, 100,000,000 per version). Bound what the rules walk, starting with the most expensive: {bounds}.',
  },
  KG082: {
    severity: 'warning',
    message: 'CRD manifest {file} is {size} bytes, over the 262,144 bytes client-side `kubectl apply` can store in its last-applied-configuration annotation',
    hint: 'Apply it with `kubectl apply --server-side` (or kubectl create/replace), or shorten descriptions with `kgen generate --crd-max-description-length <n>`.',
  },
  KG083: {
    severity: 'error',
    message: 'CRD manifest {file} is {size} bytes, over the 1.5 MiB (1,572,864 bytes) etcd stores in one request',
    hint: 'No cluster can store it: drop descriptions with `kgen generate --crd-max-description-length 0`, or split the kind.',
  },
  KG084: {
    severity: 'error',
    message: '{subject}: kube-apiserver refuses the CRD: {field}: {message}',
    hint: 'kgen runs the server\'s own CRD validation (apiextensions ValidateCustomResourceDefinition) on every generated CRD; change the definition so its schema is structural (README: "Limits checked at generate time").',
  },
  // Protobuf field numbers (KG12x)
  KG120: {
    severity: 'error',
    message: 'invalid @kgen:protobuf "{text}" on "{field}": {problem}',
    hint: 'Write the field\'s number in kube\'s generated.proto message, e.g. @kgen:protobuf 3, or N.M for a field of a Go-embedded struct held in field N; after it only the words pointer (the Go field is a pointer to a scalar or an IntOrString, e.g. *int32) and microtime (a date-time string that is a metav1.MicroTime), e.g. @kgen:protobuf 3 pointer.',
  },
  KG121: {
    severity: 'error',
    message: 'protobuf field number {number} of "{type}" is given to both "{field}" and "{other}"',
    hint: 'Every field of a message has its own number (a kind\'s metadata is 1); copy the numbers from the message in kube\'s generated.proto.',
  },
  KG122: {
    severity: 'error',
    message: '"{type}" numbers some fields with @kgen:protobuf but not "{field}"',
    hint: 'A message needs a number for every field, or the kind cannot be encoded; number them all or none.',
  },
} as const satisfies Record<string, DiagnosticDef>;

export type DiagnosticCode = keyof typeof DIAGNOSTICS;

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  hint: string;
  loc: SourceLocation;
}

function fill(template: string, args: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => args[key] ?? '');
}

export function diagnostic(code: DiagnosticCode, loc: SourceLocation, args: Record<string, string> = {}): Diagnostic {
  const def: DiagnosticDef = DIAGNOSTICS[code];
  return { code, severity: def.severity, message: fill(def.message, args), hint: fill(def.hint, args), loc };
}

/** Collects diagnostics; stages report into one bag. */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];

  add(code: DiagnosticCode, loc: SourceLocation, args: Record<string, string> = {}): void {
    this.items.push(diagnostic(code, loc, args));
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }

  /** Sorted by file, line and column, for stable output. */
  sorted(): Diagnostic[] {
    return [...this.items].sort(
      (a, b) =>
        a.loc.file.localeCompare(b.loc.file) || a.loc.line - b.loc.line || a.loc.col - b.loc.col || a.code.localeCompare(b.code),
    );
  }
}

/** `apis/x/v1/a.ts:3:4 - error KG001: message\n  hint: …` */
export function formatDiagnostic(d: Diagnostic, cwd = process.cwd()): string {
  const file = d.loc.file.startsWith(cwd + '/') ? d.loc.file.slice(cwd.length + 1) : d.loc.file;
  return `${file}:${d.loc.line}:${d.loc.col} - ${d.severity} ${d.code}: ${d.message}\n  hint: ${d.hint}`;
}

/** Levenshtein distance, for "did you mean". */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

export function didYouMean(word: string, candidates: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? `; did you mean "${best}"?` : '';
}
