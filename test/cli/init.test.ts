import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { init } from '../../cli/init.js';

describe('kgen init', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kgen-init-'));
    dirs.push(dir);
    return dir;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('writes the example kind, app, tsconfig, .gitignore, README and package.json, keeping existing dependency specs', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'mine', dependencies: { kgen: 'file:../kgen-0.1.0.tgz', '@kgen/client': 'file:../kgen-client-0.1.0.tgz', lodash: '^4' } }));
    const result = init({ dir, group: 'shop.example.org', force: false });
    assert.deepEqual(result.conflicts, []);
    for (const f of ['apis/shop.example.org/v1/widget.ts', 'src/app.ts', 'tsconfig.json', '.gitignore', 'README.md']) assert.ok(existsSync(join(dir, f)), f);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    assert.equal(pkg.name, 'mine');
    assert.equal(pkg.type, 'module');
    assert.deepEqual(pkg.dependencies, { '@kgen/client': 'file:../kgen-client-0.1.0.tgz', lodash: '^4' });
    assert.equal(pkg.devDependencies.kgen, 'file:../kgen-0.1.0.tgz');
    assert.ok(pkg.devDependencies.typescript && pkg.devDependencies['@types/node']);
    assert.equal(pkg.scripts.generate, 'kgen generate ./apis');
    assert.equal(pkg.scripts.check, 'kgen generate ./apis --check');
    assert.equal(pkg.scripts.serve, 'kgen serve ./generated');
    assert.match(readFileSync(join(dir, '.gitignore'), 'utf8'), /^\.kgen\/$/m);
    assert.match(readFileSync(join(dir, 'src/app.ts'), 'utf8'), /clientset\.shopExampleOrgV1\.widgets\(/);
    assert.match(readFileSync(join(dir, 'README.md'), 'utf8'), /^# mine\n[\s\S]*## API types with kgen/);
  });

  it('refuses to overwrite, naming what exists, and writes nothing; --force overwrites', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'tsconfig.json'), '{"mine": true}');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', scripts: { serve: 'my-server' } }));
    writeFileSync(join(dir, 'README.md'), '# x\n\nMy notes.\n');
    const refused = init({ dir, group: 'demo.example.com', force: false });
    assert.deepEqual(refused, { written: [], conflicts: ['tsconfig.json', 'package.json script "serve"'] });
    assert.equal(readFileSync(join(dir, 'tsconfig.json'), 'utf8'), '{"mine": true}');
    assert.equal(existsSync(join(dir, 'apis')), false);
    const forced = init({ dir, group: 'demo.example.com', force: true });
    assert.ok(forced.written.includes('tsconfig.json'));
    assert.match(readFileSync(join(dir, 'tsconfig.json'), 'utf8'), /"module": "nodenext"/);
    assert.equal(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts.serve, 'kgen serve ./generated');
    // The README keeps its text and gets one kgen section, also when forced again.
    init({ dir, group: 'demo.example.com', force: true });
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    assert.match(readme, /^# x\n\nMy notes\.\n\n<!-- kgen:init -->/);
    assert.equal(readme.split('<!-- kgen:init -->').length, 2);
  });

  it('refuses a group that is not a DNS subdomain', () => {
    assert.throws(() => init({ dir: fresh(), group: 'Widgets', force: false }), /must be a DNS subdomain/);
  });
});
