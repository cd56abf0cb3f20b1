/**
 * generator/emit/yaml.ts prints CRD manifests: it must print exactly what the `yaml` package's
 * stringify(value, { lineWidth: 0, version: '1.1' }) prints, for any JSON document, except strings
 * holding U+0085, U+2028 or U+2029, which the package prints raw and kubectl's reader (go-yaml,
 * YAML 1.1) takes as line breaks: those are double-quoted with the characters escaped.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseAllDocuments, stringify } from 'yaml';
import { stringifyYaml } from '../../generator/emit/yaml.js';
import { compile } from '../../generator/index.js';
import { REPO } from './helpers.js';

const reference = (value: unknown) => stringify(value, { lineWidth: 0, version: '1.1' });

/** Strings made of the characters YAML cares about: indicators, quotes, spaces, newlines, digits, 1.1 words. */
const trickyString = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'B', ' ', ':', '#', '-', '?', '"', "'", '\n', '\t', '0', '1', '.', 'e', '|', '>', '{', '[', ',', '*', '&', '!', '%', '@', '`', '~', 'é', '\u0007') }),
  fc.constantFrom('', 'yes', 'No', 'on', 'OFF', 'y', 'null', '~', '<<', '0x1F', '012', '1_000', '1:30', '.inf', '-.5', '1e3', '2024-01-02', '---', '...', '--- x', 'a\n---\nb', ' lead', 'trail ', 'x: y', 'a #b'),
  fc.string(),
);
const key = fc.oneof(fc.constantFrom('description', 'type', 'x-kubernetes-list-type', 'on', '200', 'a b', 'k: v', ''), trickyString);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    trickyString,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
}));

describe('stringifyYaml', () => {
  test('prints what the yaml package prints, for random JSON documents', () => {
    fc.assert(
      fc.property(fc.oneof(json.object, json.array), (doc) => {
        assert.equal(stringifyYaml(doc), reference(doc));
      }),
      { numRuns: 2000 },
    );
  });

  test('prints what the yaml package prints, for every CRD kgen emits for the examples', () => {
    const crds = compile({ apisDir: join(REPO, 'apis') }).files.filter((f) => f.path.startsWith('crds/'));
    assert.ok(crds.length > 0);
    for (const file of crds) {
      for (const doc of parseAllDocuments(file.content)) {
        const value = doc.toJS();
        assert.equal(stringifyYaml(value), reference(value), file.path);
      }
    }
  });

  test("strings holding YAML 1.1's other line breaks are escaped, and kubectl reads them back", () => {
    // A string from apis/ (an enum member, a description, a field name) that, printed plain as the
    // package prints it, kubectl reads as more keys (or refuses the file).
    const evil = 'ctx\u2028kind:\u2028  x';
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': evil,
      contexts: [{ name: evil, context: { cluster: 'c\u2029d', user: 'u\u0085v', namespace: 'n' } }],
      clusters: [],
      users: [],
      preferences: {},
    };
    // The same through the package's path (a document marker in another string sends it there).
    const withMarker = { ...config, contexts: [...config.contexts, { name: 'a\n---\nb', context: { cluster: 'x' } }], ['k\u2028'.repeat(3)]: 'v' };
    const dir = mkdtempSync(join(tmpdir(), 'kgen-yaml-'));
    try {
      for (const value of [config, withMarker]) {
        const text = stringifyYaml(value);
        assert.doesNotMatch(text, /[\u0085\u2028\u2029]/, text);
        assert.deepEqual(parseAllDocuments(text, { version: '1.1' })[0]!.toJS(), value);
        if (value === withMarker) continue; // kubectl's Config has no field for the extra key
        const file = join(dir, 'config');
        writeFileSync(file, text);
        const view = spawnSync('kubectl', ['config', 'view', '--kubeconfig', file, '-o', 'json'], { encoding: 'utf8' });
        assert.equal(view.status, 0, `kubectl config view: ${view.error ?? ''}${view.stderr}`);
        const read = JSON.parse(view.stdout);
        assert.equal(read['current-context'], evil);
        assert.deepEqual(read.contexts, config.contexts);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
