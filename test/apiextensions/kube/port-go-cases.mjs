#!/usr/bin/env node
/**
 * Ports apiextensions-apiserver's TestValidateCustomResourceDefinitionValidation table
 * (pkg/apis/apiextensions/validation/validation_test.go) to JSON: every case's schema (Go
 * composite literals of the internal apiextensions types turned into the JSON kube's v1 API
 * reads), statusEnabled, validationOptions and expected errors (type, field path, and the
 * `contains` text where kube's case has one). The output is committed beside this script
 * (validation-cases.json); the table test reads it.
 *
 *   node test/apiextensions/kube/port-go-cases.mjs <validation_test.go> <commit> > test/apiextensions/kube/validation-cases.json
 *
 * The Go literals are read by go-literals.mjs.
 */
import { readFileSync } from 'node:fs';
import { Parser, packageVars, tokenize } from './go-literals.mjs';

const [file, commit] = process.argv.slice(2);
const src = readFileSync(file, 'utf8');

const vars = packageVars(src);

const fn = src.indexOf('func TestValidateCustomResourceDefinitionValidation(');
const open = src.indexOf('}{', fn) + 1;
const parser = new Parser(tokenize(src.slice(open)), vars);
const cases = parser.value('testCase').map((c) => ({
  name: c.name,
  schema: c.input?.openAPIV3Schema ?? null,
  statusEnabled: c.statusEnabled ?? false,
  opts: Object.fromEntries(Object.entries(c.opts ?? {}).map(([k, v]) => [k, v && typeof v === 'object' && '$celEnvironment' in v ? v.$celEnvironment : v])),
  errors: (c.expectedErrors ?? []).map((e) => ({ type: e.$match, path: e.path, ...(e.contains !== undefined ? { contains: e.contains } : {}) })),
}));
process.stdout.write(JSON.stringify({ source: `kubernetes/apiextensions-apiserver@${commit} pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinitionValidation`, cases }, null, 1) + '\n');
