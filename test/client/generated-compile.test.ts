/**
 * The generated client and models (generated/client, generated/models) type-check with no errors
 * under each user setting the issue names, strict in all: nodenext; esnext + bundler;
 * isolatedModules + verbatimModuleSyntax; exactOptionalPropertyTypes (with noUncheckedIndexedAccess).
 * @kgen/client resolves through its package exports to its built .d.ts files (no skipLibCheck), as
 * in a user's project. TypeScript's own lib .d.ts files are not checked (skipDefaultLibCheck):
 * they are not kgen's output, and checking them was about a third of each tsc run.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO } from '../e2e/harness.js';

const SETTINGS: Record<string, object> = {
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
  'isolatedModules + verbatimModuleSyntax': { module: 'nodenext', moduleResolution: 'nodenext', isolatedModules: true, verbatimModuleSyntax: true },
  exactOptionalPropertyTypes: { module: 'nodenext', moduleResolution: 'nodenext', exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true },
};

describe('generated client code compiles under strict user settings', () => {
  // Inside the repository (test/.tmp), so that @kgen/client resolves from its node_modules.
  const dir = join(REPO, 'test', '.tmp', `generated-compile-${process.pid}`);
  before(() => {
    mkdirSync(join(dir, 'generated'), { recursive: true });
    for (const sub of ['client', 'models']) cpSync(join(REPO, 'generated', sub), join(dir, 'generated', sub), { recursive: true });
    // @kgen/client's .d.ts files as users get them.
    const build = spawnSync(process.execPath, [join(REPO, 'packages/client/build.js')], { encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, options] of Object.entries(SETTINGS)) {
    it(name, () => {
      const file = join(dir, `tsconfig.${name.replace(/\W+/g, '-')}.json`);
      writeFileSync(file, JSON.stringify({ compilerOptions: { target: 'ES2022', strict: true, noEmit: true, skipDefaultLibCheck: true, types: ['node'], ...options }, include: ['generated/**/*.ts'] }));
      const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', file], { encoding: 'utf8' });
      assert.equal(tsc.status, 0, `tsc (${name}) reported errors:\n${tsc.stdout}${tsc.stderr}`);
    });
  }
});
