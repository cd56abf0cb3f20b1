/**
 * `kgen init [dir] [--group g] [--force]`: a new project around kgen, as a user's first step.
 * It writes an example kind under apis/<group>/v1/, an example program (src/app.ts) using the
 * generated client, a tsconfig fit for the generated code, a .gitignore, a README section, and
 * package.json scripts (generate, check, serve, build, start) and dependencies: @kgen/client at run
 * time, kgen, typescript and @types/node for development. Specs already in package.json (a
 * tarball, a git URL) are kept; kgen moves to devDependencies.
 *
 * It refuses, listing them, to overwrite files that exist (package.json is merged, and refused only
 * when it already has a different script of the same name; README.md gets a section appended)
 * unless --force is given. Nothing is written when it refuses.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { Command } from 'commander';

const KGEN_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface InitOptions {
  dir: string;
  group: string;
  force: boolean;
}

export interface InitResult {
  written: string[];
  /** Files that exist and were not overwritten (without force, nothing is written then). */
  conflicts: string[];
}

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('start a project: an example API kind, scripts, tsconfig and dependencies (kgen as a dev dependency, @kgen/client at run time)')
    .argument('[dir]', 'project folder', '.')
    .option('--group <group>', 'API group of the example kind', 'demo.example.com')
    .option('--force', 'overwrite files that exist')
    .action((dir: string, flags: { group: string; force?: boolean }) => {
      const result = init({ dir, group: flags.group, force: Boolean(flags.force) });
      if (result.conflicts.length > 0 && result.written.length === 0) {
        process.stderr.write(`kgen init: these exist and would be overwritten (use --force):\n${result.conflicts.map((c) => `  ${c}\n`).join('')}`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`kgen init: wrote ${result.written.join(', ')}\n\nNext:\n  npm install\n  npm run generate\n  npm run serve      # in another terminal\n  npm run build && npm start\n`);
    });
}

const GROUP = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/;

export function init(options: InitOptions): InitResult {
  if (!GROUP.test(options.group)) throw new Error(`--group ${JSON.stringify(options.group)} must be a DNS subdomain with a dot, e.g. demo.example.com`);
  const dir = resolve(options.dir);
  const files = projectFiles(options.group);
  const conflicts: string[] = [];
  for (const path of Object.keys(files)) if (existsSync(join(dir, path))) conflicts.push(path);

  const pkgPath = join(dir, 'package.json');
  const pkg = existsSync(pkgPath) ? (JSON.parse(readFileSync(pkgPath, 'utf8')) as PackageJson) : { name: packageName(dir), version: '0.1.0', private: true };
  const scripts = SCRIPTS;
  for (const [name, command] of Object.entries(scripts)) {
    if (pkg.scripts?.[name] !== undefined && pkg.scripts[name] !== command) conflicts.push(`package.json script "${name}"`);
  }
  const readmePath = join(dir, 'README.md');
  const readme = existsSync(readmePath) ? readFileSync(readmePath, 'utf8') : undefined;
  if (readme?.includes(README_MARKER)) conflicts.push('README.md kgen section');
  if (conflicts.length > 0 && !options.force) return { written: [], conflicts };

  const written: string[] = [];
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
    written.push(path);
  }
  writeFileSync(pkgPath, `${JSON.stringify(mergePackage(pkg), null, 2)}\n`);
  written.push('package.json');
  const section = readmeSection(options.group);
  if (readme === undefined) writeFileSync(readmePath, `# ${pkg.name ?? packageName(dir)}\n\n${section}`);
  else if (!readme.includes(README_MARKER)) writeFileSync(readmePath, `${readme.replace(/\n*$/, '\n\n')}${section}`);
  else writeFileSync(readmePath, readme.replace(new RegExp(`${README_MARKER}[\\s\\S]*?${README_END}\\n?`), section));
  written.push('README.md');
  return { written, conflicts: options.force ? conflicts : [] };
}

interface PackageJson {
  name?: string;
  version?: string;
  private?: boolean;
  type?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  [key: string]: unknown;
}

const SCRIPTS: Record<string, string> = {
  generate: 'kgen generate ./apis',
  check: 'kgen generate ./apis --check',
  serve: 'kgen serve ./generated',
  build: 'tsc -p tsconfig.json',
  start: 'node dist/src/app.js',
};

/** A dependency's package.json as kgen resolves it (hoisted or nested); '' when not installed. */
function resolvePackageJson(name: string): string {
  try {
    return createRequire(join(KGEN_ROOT, 'package.json')).resolve(`${name}/package.json`);
  } catch {
    return '';
  }
}

function versionOf(pkgJson: string, fallback: string): string {
  try {
    return `^${(JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string }).version}`;
  } catch {
    return fallback;
  }
}

/** package.json with the scripts and dependencies; specs already there (a tarball, git) are kept. */
function mergePackage(pkg: PackageJson): PackageJson {
  const deps = { ...pkg.dependencies };
  const dev = { ...pkg.devDependencies };
  const kgenSpec = dev.kgen ?? deps.kgen ?? versionOf(join(KGEN_ROOT, 'package.json'), 'latest');
  delete deps.kgen;
  const clientSpec = deps['@kgen/client'] ?? dev['@kgen/client'] ?? versionOf(resolvePackageJson('@kgen/client'), 'latest');
  delete dev['@kgen/client'];
  deps['@kgen/client'] = clientSpec;
  dev.kgen = kgenSpec;
  dev.typescript ??= versionOf(resolvePackageJson('typescript'), '^5.9.0');
  dev['@types/node'] ??= '^20.19.0';
  return {
    ...pkg,
    type: 'module',
    scripts: { ...pkg.scripts, ...SCRIPTS },
    dependencies: sortKeys(deps),
    devDependencies: sortKeys(dev),
  };
}

function sortKeys(o: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

function packageName(dir: string): string {
  const base = relative(dirname(dir), dir).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '');
  return base || 'kgen-project';
}

/** camelCase accessor of <group>/v1 on the generated Clientset (as the generator names it). */
function accessor(group: string): string {
  const words = group.split(/[.-]/).filter(Boolean);
  return `${words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('')}V1`;
}

function projectFiles(group: string): Record<string, string> {
  return {
    [`apis/${group}/v1/widget.ts`]: `import type { int32 } from 'kgen';

/**
 * Widget is an example kind: edit it, or add kinds beside it, then run \`npm run generate\`.
 * @kgen:resource scope=Namespaced shortNames=wd
 * @kgen:subresource status
 * @kgen:printcolumn name=Replicas type=integer jsonPath=.spec.replicas
 */
export interface Widget {
  spec: WidgetSpec;
  status?: WidgetStatus;
}

export interface WidgetSpec {
  /**
   * How many replicas to run.
   * @minimum 0
   * @default 1
   */
  replicas?: int32;
  /** A free-form note. */
  note?: string;
}

export interface WidgetStatus {
  /** Replicas running now. */
  readyReplicas?: int32;
}
`,
    'src/app.ts': `// An example program using the generated client: it watches Widgets, creates one, lists them
// and prints what the watch saw. Run \`npm run serve\` first, then \`npm run build && npm start\`.
import { existsSync } from 'node:fs';
import { Clientset } from '../generated/client/index.js';
import type { Widget } from '../generated/models/${group}/v1.js';

// \`kgen serve\` writes .kgen/kubeconfig; elsewhere $KUBECONFIG, ~/.kube/config or the pod's service account.
const local = '.kgen/kubeconfig';
const clientset = existsSync(local) && !process.env['KUBECONFIG'] ? Clientset.fromKubeconfig(local) : Clientset.fromDefault();
const widgets = clientset.${accessor(group)}.widgets(clientset.namespace);

const name = \`hello-\${Date.now()}\`;
const stop = new AbortController();
const seen = (async () => {
  for await (const event of widgets.watch({ signal: stop.signal })) {
    if (event.type !== 'BOOKMARK' && event.type !== 'ERROR' && event.object.metadata.name === name) return event.type;
  }
  return 'none';
})();

const widget: Widget = { apiVersion: '${group}/v1', kind: 'Widget', metadata: { name }, spec: { replicas: 2, note: 'made by src/app.ts' } };
await widgets.create(widget);
const list = await widgets.list();
console.log(\`widgets: \${list.items.map((w) => w.metadata.name).join(', ')}\`);
console.log(\`watch: \${await seen} \${name}\`);
stop.abort();
clientset.rest.close();
`,
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          verbatimModuleSyntax: true,
          isolatedModules: true,
          skipLibCheck: true,
          rootDir: '.',
          outDir: 'dist',
          declaration: true,
          types: ['node'],
        },
        include: ['src'],
      },
      null,
      2,
    )}\n`,
    '.gitignore': 'node_modules/\ndist/\n.kgen/\n',
  };
}

const README_MARKER = '<!-- kgen:init -->';
const README_END = '<!-- /kgen:init -->';

function readmeSection(group: string): string {
  return `${README_MARKER}
## API types with kgen

The API types live in \`apis/${group}/v1/\` as TypeScript interfaces. \`kgen\` (a dev dependency)
compiles them into \`generated/\`: OpenAPI, CRDs, server code and a typed client. Programs use the
generated client, which needs only \`@kgen/client\` at run time.

    npm run generate   # apis/ -> generated/ (commit generated/)
    npm run check      # fails when generated/ is stale (for CI)
    npm run serve      # an API server for the generated kinds; writes .kgen/kubeconfig
    npm run build && npm start   # src/app.ts: create, list and watch Widgets

\`Clientset.fromDefault()\` finds a cluster as client-go does: $KUBECONFIG, ~/.kube/config, then
the in-cluster service account.
${README_END}
`;
}
