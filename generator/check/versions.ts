/**
 * Checks of multi-version kinds: version markers (@kgen:unservedversion, @kgen:deprecatedversion)
 * only where they mean something, at least one served version, one resource name and scope across
 * versions, and conversion: every field the generated code cannot convert has its user function,
 * and every `Convert_*` a user exports converts something. (Exactly one storage version is KG026's.)
 */
import { relative } from 'node:path';
import { didYouMean, type DiagnosticBag } from '../diagnostics.js';
import type { ApiModel, Kind } from '../model.js';
import { apiVersionOf } from '../names.js';
import { multiVersionKinds } from '../versions.js';
import { planConversions, type KindConversionPlan } from './conversion.js';

/** Returns the conversion plans it checked, for the checked model (./checked.ts). */
export function checkVersions(model: ApiModel, diags: DiagnosticBag): KindConversionPlan[] {
  for (const group of model.groups) {
    const multi = multiVersionKinds(group);
    for (const version of group.versions) {
      for (const kind of version.kinds) {
        if (!multi.has(kind.name)) checkSingleVersionMarkers(kind, diags);
      }
    }
    for (const [name, kinds] of multi) {
      if (kinds.every((k) => k.unserved)) {
        diags.add('KG043', kinds[0]!.unserved!, { kind: name, group: group.name || 'core' });
      }
      const storage = kinds.find((k) => k.storageVersion);
      if (storage) checkSameResource(storage, kinds, diags);
    }
  }
  const plans = planConversions(model);
  for (const plan of plans) checkPlan(plan, diags);
  checkConversionFiles(model, plans, diags);
  return plans;
}

/** controller-gen ignores version markers on a single-version kind; kgen says so. */
function checkSingleVersionMarkers(kind: Kind, diags: DiagnosticBag): void {
  const groupVersion = apiVersionOf(kind.group, kind.version);
  if (kind.unserved) diags.add('KG042', kind.unserved, { tag: '@kgen:unservedversion', kind: kind.name, groupVersion });
  if (kind.deprecated) diags.add('KG042', kind.deprecated.loc, { tag: '@kgen:deprecatedversion', kind: kind.name, groupVersion });
}

function checkSameResource(storage: Kind, kinds: Kind[], diags: DiagnosticBag): void {
  for (const kind of kinds) {
    if (kind === storage) continue;
    for (const what of ['plural', 'singular', 'scope'] as const) {
      if (kind[what] === storage[what]) continue;
      diags.add('KG044', kind.loc, { kind: kind.name, what, value: kind[what], version: kind.version, storageValue: storage[what], storageVersion: storage.version });
    }
  }
}

/** One KG040 per field without a conversion, when its type pair has no user function. */
function checkPlan(plan: KindConversionPlan, diags: DiagnosticBag): void {
  for (const unit of plan.units) {
    if (unit.manual || unit.unmatched.length === 0) continue;
    const spoke = unit.fromVersion === plan.hub.version ? unit.toVersion : unit.fromVersion;
    const file = relativeToCwd(plan.conversionFile.get(spoke)!);
    for (const field of unit.unmatched) {
      diags.add('KG040', field.property.loc, {
        groupVersion: apiVersionOf(plan.group, unit.fromVersion),
        field: field.path,
        problem: field.problem,
        function: unit.manualName,
        file,
      });
    }
  }
}

/** Every exported `Convert_*` must name a type pair between its folder's version and the storage version. */
function checkConversionFiles(model: ApiModel, plans: KindConversionPlan[], diags: DiagnosticBag): void {
  for (const file of model.conversionFiles ?? []) {
    const plansHere = plans.filter((p) => p.group === file.group && p.spokes.some((s) => s.version === file.version));
    const expected = plansHere.flatMap((p) =>
      p.units.filter((u) => u.fromVersion === file.version || u.toVersion === file.version).map((u) => u.manualName),
    );
    for (const fn of file.functions) {
      if (expected.includes(fn.name)) continue;
      const group = model.groups.find((g) => g.name === file.group);
      const storageVersions = [...new Set(group ? [...multiVersionKinds(group).values()].flatMap((ks) => ks.filter((k) => k.storageVersion).map((k) => k.version)) : [])];
      const expectedText = expected.length
        ? `The conversions of ${apiVersionOf(file.group, file.version)} are named ${expected.join(', ')}.`
        : storageVersions.includes(file.version)
          ? `${apiVersionOf(file.group, file.version)} is the storage version: conversions to and from it live in the other versions' conversion.ts.`
          : `${apiVersionOf(file.group, file.version)} has no kind declared in another version, so nothing converts; remove the function.`;
      diags.add('KG041', fn.loc, { function: fn.name, suggestion: didYouMean(fn.name, expected), expected: expectedText });
    }
  }
}

function relativeToCwd(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

