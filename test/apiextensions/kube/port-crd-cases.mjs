#!/usr/bin/env node
/**
 * Ports apiextensions-apiserver's whole-CRD validation tables (pkg/apis/apiextensions/validation/
 * validation_test.go: TestValidateCustomResourceDefinition and TestValidateCustomResourceDefinitionUpdate)
 * to JSON. kube's cases are CRDs of the internal, v1beta1-shaped type; kgen validates v1 CRDs, so each
 * is turned into the v1 CRD kube's own conversion makes of it (pkg/apis/apiextensions/v1/conversion.go,
 * Convert_apiextensions_CustomResourceDefinitionSpec_To_v1_CustomResourceDefinitionSpec): spec.version
 * becomes the one version when spec.versions is empty; top-level validation, subresources,
 * additionalPrinterColumns and selectableFields go to every version; webhookClientConfig and
 * conversionReviewVersions go to conversion.webhook. Each expected error's path is mapped the same way
 * (`spec.validation.openAPIV3Schema…` → `spec.versions[i].schema.openAPIV3Schema…` for every version i);
 * paths that only the internal shape has (spec.version) are marked `internalOnly`, and the table test
 * excludes such cases with the reason. kube reports conversion webhook errors at the internal paths
 * (spec.conversion.webhookClientConfig, spec.conversion.conversionReviewVersions) for v1 CRDs too, so
 * those stay. Each case keeps kube's original paths (`kubePath`) beside the mapped ones.
 *
 *   node test/apiextensions/kube/port-crd-cases.mjs <validation_test.go> <commit> > test/apiextensions/kube/crd-cases.json
 */
import { readFileSync } from 'node:fs';
import { Parser, packageVars, tokenize } from './go-literals.mjs';

const [file, commit] = process.argv.slice(2);
const src = readFileSync(file, 'utf8');
const vars = packageVars(src);

const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

/** kube's internal → v1 conversion of a CRD (the parts validation sees). */
function toV1(crd) {
  if (!crd) return crd;
  const { version, validation, subresources, additionalPrinterColumns, selectableFields, conversion, preserveUnknownFields, ...spec } = crd.spec ?? {};
  let versions = (spec.versions ?? []).map((v) => ({ ...v }));
  if (versions.length === 0 && version) versions = [{ name: version, served: true, storage: true }];
  for (const v of versions) {
    if (subresources != null) v.subresources = clone(subresources);
    if (validation != null) v.schema = clone(validation);
    if (additionalPrinterColumns != null) v.additionalPrinterColumns = clone(additionalPrinterColumns);
    if (selectableFields != null) v.selectableFields = clone(selectableFields);
  }
  const out = { ...spec, versions };
  if (conversion) {
    const { webhookClientConfig, conversionReviewVersions, ...rest } = conversion;
    out.conversion = rest;
    if (webhookClientConfig != null || conversionReviewVersions != null) {
      out.conversion.webhook = { ...(conversionReviewVersions != null ? { conversionReviewVersions } : {}), ...(webhookClientConfig != null ? { clientConfig: webhookClientConfig } : {}) };
    }
  }
  // *bool → bool (omitempty): nil and false are the same in v1.
  if (preserveUnknownFields === true) out.preserveUnknownFields = true;
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', ...crd, spec: out };
}

const MOVED = ['validation', 'subresources', 'additionalPrinterColumns', 'selectableFields'];

/** One internal path → the v1 paths (one per version for the fields conversion copies to every version). */
function mapPath(path, v1) {
  if (/^spec\.version(\.|\[|$)/.test(path)) return { internalOnly: true, paths: [path] };
  for (const f of MOVED) {
    const m = new RegExp(`^spec\\.${f}(?=\\.|\\[|$)`).exec(path);
    if (!m) continue;
    const rest = path.slice(m[0].length);
    const to = f === 'validation' ? 'schema' : f;
    const n = v1?.spec?.versions?.length || 1;
    return { paths: Array.from({ length: n }, (_, i) => `spec.versions[${i}].${to}${rest}`) };
  }
  return { paths: [path] };
}

/** The rows of a test function's `tests := []struct{…}{…}` table, as parsed JSON. */
function rowsOf(fnName, rewrite = (body) => body) {
  const fn = src.indexOf(`func ${fnName}(`);
  const body = rewrite(src.slice(fn, src.indexOf('\nfunc ', fn + 10)));
  // Local variables declared before the table (singleVersionList, schema).
  const local = { ...vars };
  for (const m of body.matchAll(/^\t(\w+) := /gm)) {
    if (m[1] === 'tests') continue;
    const start = m.index + m[0].length;
    local[m[1]] = () => new Parser(tokenize(body.slice(start, start + 5000)), local).value();
  }
  const tests = body.indexOf('tests := ');
  const open = body.indexOf('}{', tests) + 1;
  return new Parser(tokenize(body.slice(open)), local).value('testCase');
}

function portTable(fnName, fixup) {
  const fn = src.indexOf(`func ${fnName}(`);
  const body = src.slice(fn, src.indexOf('\nfunc ', fn + 10));
  // Local variables declared before the table (singleVersionList).
  const local = { ...vars };
  for (const m of body.matchAll(/^\t(\w+) := /gm)) {
    if (m[1] === 'tests') continue;
    const start = m.index + m[0].length;
    local[m[1]] = () => new Parser(tokenize(body.slice(start, start + 5000)), local).value();
  }
  const tests = body.indexOf('tests := ');
  const open = body.indexOf('}{', tests) + 1;
  const rows = new Parser(tokenize(body.slice(open)), local).value('testCase');
  return rows.map((c) => {
    fixup?.(c);
    const resource = toV1(c.resource);
    const old = c.old ? toV1(c.old) : undefined;
    let internalOnly = false;
    const errors = [];
    for (const e of c.errors ?? []) {
      const mapped = mapPath(e.path, resource);
      internalOnly ||= mapped.internalOnly === true;
      for (const p of mapped.paths) errors.push({ type: e.$match, path: p, ...(p !== e.path ? { kubePath: e.path } : {}), ...(e.contains !== undefined ? { contains: e.contains } : {}) });
    }
    return { name: c.name, ...(internalOnly ? { internalOnly } : {}), ...(old ? { old } : {}), resource, errors };
  });
}

/** The create test's own defaulting (kube's test does it before validating). */
function defaultReviewVersions(c) {
  const conv = c.resource?.spec?.conversion;
  if (conv && conv.strategy === 'Webhook' && !(conv.conversionReviewVersions?.length)) conv.conversionReviewVersions = ['v1beta1'];
}

const out = {
  source: `kubernetes/apiextensions-apiserver@${commit} pkg/apis/apiextensions/validation/validation_test.go`,
  TestValidateCustomResourceDefinition: portTable('TestValidateCustomResourceDefinition', defaultReviewVersions),
  TestValidateCustomResourceDefinitionUpdate: portTable('TestValidateCustomResourceDefinitionUpdate'),
  TestSelectableFields: portTable('TestSelectableFields', defaultReviewVersions),
  // ValidateCustomResourceDefinitionStoredVersions(storedVersions, versions): versions named in
  // `versions`, the one named `storageVersion` marked storage (as kube's loop builds them).
  TestValidateCustomResourceDefinitionStoredVersions: rowsOf('TestValidateCustomResourceDefinitionStoredVersions').map((c) => ({
    name: c.name,
    versions: (c.versions ?? []).map((name) => ({ name, ...(name === c.storageVersion ? { storage: true } : {}) })),
    storedVersions: c.storedVersions ?? [],
    errors: (c.errors ?? []).map((e) => ({ type: e.$match, path: e.path, ...(e.contains !== undefined ? { contains: e.contains } : {}) })),
  })),
  // validateDeprecationWarning(deprecated, warning) → the messages.
  Test_validateDeprecationWarning: rowsOf('Test_validateDeprecationWarning').map((c) => ({ name: c.name, deprecated: c.deprecated ?? false, warning: c.warning ?? null, want: c.want ?? [] })),
  // cel.ValidFieldPath(fieldPath, schema): an error containing errMsg, or none.
  // TotalCost.ObserveExpressionCost over `costs`: the most expensive and the total. Costs are
  // JSON numbers (float64): math.MaxUint64 is written as its float64 value, 2^64.
  TestPerCRDEstimatedCost: rowsOf('TestPerCRDEstimatedCost', (b) => b.replaceAll('math.MaxUint64 / 2', '9223372036854775808').replaceAll('math.MaxUint64', '18446744073709551616')).map((c) => ({
    name: c.name,
    costs: c.costs ?? [],
    expectedExpensive: c.expectedExpensive ?? [],
    expectedTotal: c.expectedTotal,
  })),
  TestValidateFieldPath: rowsOf('TestValidateFieldPath').map((c) => ({ name: c.name, fieldPath: c.fieldPath, schema: c.schema, errMsg: c.errMsg ?? '' })),
};
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
