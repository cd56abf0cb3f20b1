#!/usr/bin/env node
// Builds kgen's own package into dist/: cli/, generator/ and runtime/ as ES modules (one .js file
// and source map per source, written by esbuild, no bundling) plus the .d.ts files and declaration
// maps tsc writes for them (tsconfig.build.json). The package's "exports" name these files, and
// bin/kgen.js runs dist/cli/index.js in an installed package. Runs on `prepare` (npm install or
// npm ci in the repository, npm pack, installs from git) after @kgen/client's build, whose .d.ts
// files kgen's own refer to.
//
// Sources find files beside them through import.meta.url (templates/, generator/builtin/,
// package.json, createRequire). In dist/ each module's import.meta.url is replaced by the URL of
// its source (dist/runtime/x/y.js → runtime/x/y.ts, which the package ships), so those paths
// resolve as they do from the sources.
//
// Written beside dist/ and swapped in whole, so that a process reading dist/ (tests running in
// parallel; npm pack) never sees a half-written tree.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const esbuild = require('esbuild');

const TREES = ['cli', 'generator', 'runtime'];
/** API types the generator parses (generator/builtin/**), not modules that run. */
const SKIP = /^generator[\\/]builtin[\\/]/;

function walk(dir) {
  const out = [];
  for (const ent of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = join(dir, ent.name);
    if (ent.isDirectory()) out.push(...walk(rel));
    else if (!SKIP.test(rel)) out.push(rel);
  }
  return out;
}

const posix = (p) => p.split(sep).join('/');
const out = join(root, `.dist-${process.pid}`);
rmSync(out, { recursive: true, force: true });
try {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--declarationDir', out], { stdio: 'inherit', cwd: root });
  let count = 0;
  for (const tree of TREES) {
    for (const rel of walk(tree)) {
      const target = join(out, rel);
      mkdirSync(dirname(target), { recursive: true });
      if (rel.endsWith('.d.ts') || rel.endsWith('.js')) {
        // Hand-written modules (runtime/client/index.js and its .d.ts) ship as they are.
        copyFileSync(join(root, rel), target);
        continue;
      }
      if (!rel.endsWith('.ts')) continue;
      const jsFile = target.replace(/\.ts$/, '.js');
      const sourceFromJs = posix(relative(dirname(jsFile), join(out, '..', rel)));
      let text = readFileSync(join(root, rel), 'utf8');
      // Relative imports of files outside the compiled trees (bin/loader/cache-dir.js) point at
      // those files where the package ships them.
      text = text.replace(/(\bfrom\s*|\bimport\s*\(\s*)(['"])(\.\.?\/[^'"]+)\2/g, (match, head, quote, spec) => {
        const file = join(root, dirname(rel), spec);
        const inside = TREES.some((t) => !relative(join(root, t), file).startsWith('..'));
        if (inside || !existsSync(file)) return match;
        return `${head}${quote}${posix(relative(dirname(jsFile), join(out, '..', relative(root, file))))}${quote}`;
      });
      let banner = '';
      if (/\bimport\.meta\.url\b/.test(text)) {
        text = text.replaceAll('import.meta.url', '__kgenSourceUrl');
        banner = `const __kgenSourceUrl = new URL(${JSON.stringify(sourceFromJs)}, import.meta.url).href;`;
      }
      const result = await esbuild.transform(text, {
        loader: 'ts',
        format: 'esm',
        target: 'node20',
        sourcemap: 'external',
        sourcefile: sourceFromJs,
        sourcesContent: false,
        banner,
        tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: false, useDefineForClassFields: true } },
        logLevel: 'warning',
      });
      const base = jsFile.slice(dirname(jsFile).length + 1);
      writeFileSync(jsFile, `${result.code}//# sourceMappingURL=${base}.map\n`);
      writeFileSync(`${jsFile}.map`, result.map);
      count++;
    }
  }
  writeFileSync(join(out, 'README.md'), 'Built by build.js from cli/, generator/ and runtime/ (`npm run build`). Not committed.\n');
  const old = join(root, `.dist-old-${process.pid}`);
  // Another build may swap its own dist/ in between the two renames: then this one moves it aside too.
  for (let attempt = 1; ; attempt++) {
    try {
      renameSync(join(root, 'dist'), old);
    } catch {
      // No dist/ yet, or another build's swap is midway.
    }
    try {
      renameSync(out, join(root, 'dist'));
      break;
    } catch (err) {
      if (attempt >= 10) throw err;
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  }
  if (process.env.KGEN_BUILD_QUIET !== '1') console.log(`kgen: built dist/ (${count} modules, .d.ts files and maps)`);
} catch (err) {
  rmSync(out, { recursive: true, force: true });
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
