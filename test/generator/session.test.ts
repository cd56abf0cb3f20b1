/**
 * `kgen generate --watch` keeps a GenerateSession between runs (parsed files, converted groups,
 * what it wrote). After every kind of edit, a run with the session must give exactly what a cold
 * run gives: the same files, the same diagnostics, the same output directory.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { compile, formatDiagnostic, generate, newGenerateSession, sourceChangedSinceRead, sourceUnchanged, type GenerateOptions } from '../../generator/index.js';
import { REPO, copyTree, fixtureApis, listTree, tempDir } from './helpers.js';

const dir = tempDir('session');
after(() => rmSync(dir, { recursive: true, force: true }));
const apis = copyTree(join(REPO, 'apis'), join(dir, 'apis'));
const options: GenerateOptions = { apisDir: apis, outDir: join(dir, 'generated') };
const session = newGenerateSession();

/** One run with the session, compared with a cold compile of the same sources. */
function runAndCompare(what: string): ReturnType<typeof generate> {
  const warm = generate(options, session);
  const cold = compile(options);
  assert.equal(warm.ok, cold.ok, `${what}: ok`);
  assert.deepEqual(warm.diagnostics.map((d) => formatDiagnostic(d)), cold.diagnostics.map((d) => formatDiagnostic(d)), `${what}: diagnostics`);
  assert.deepEqual(
    warm.files.map((f) => [f.path, f.content]),
    cold.files.map((f) => [f.path, f.content]),
    `${what}: emitted files`,
  );
  if (cold.ok) {
    assert.deepEqual(listTree(options.outDir), cold.files.map((f) => f.path).sort(), `${what}: files on disk`);
    for (const f of cold.files) assert.equal(readFileSync(join(options.outDir, f.path), 'utf8'), f.content, `${what}: ${f.path} on disk`);
  }
  return warm;
}

const widget = join(apis, 'widgets.example.com', 'v1', 'widget.ts');
const policy = join(apis, 'ops.example.org', 'v1beta1', 'policy.ts');
const edit = (path: string, change: (text: string) => string) => writeFileSync(path, change(readFileSync(path, 'utf8')));
/** Adds a field to the first interface of the file. */
const addField = (text: string, field: string) => text.replace(/(export interface \w+ \{\n)/, `$1  /** Added by the test. */\n  ${field}?: string;\n`);

describe('a generate session (kgen generate --watch)', () => {
  test('first run writes what a cold run emits', () => {
    const r = runAndCompare('first run');
    assert.equal(r.ok, true);
  });

  test('nothing changed: nothing written', () => {
    const r = runAndCompare('unchanged');
    assert.deepEqual([r.diff!.stale, r.diff!.missing, r.diff!.extra], [[], [], []]);
  });

  test('a field added to one kind file', () => {
    edit(policy, (t) => addField(t, 'addedByTest'));
    const r = runAndCompare('field added');
    assert.ok(r.diff!.stale.length > 0, 'some files changed');
    assert.ok(r.diff!.unchanged.length > 0, 'others kept');
  });

  test('an error, then its fix', () => {
    const original = readFileSync(policy, 'utf8');
    edit(policy, (t) => t.replace('export interface', '/** @kgen:notAMarker */\nexport interface'));
    const broken = runAndCompare('error');
    assert.equal(broken.ok, false);
    assert.ok(broken.diagnostics.some((d) => d.code === 'KG001'));
    writeFileSync(policy, original);
    assert.equal(runAndCompare('fixed').ok, true);
  });

  test('a syntax error in one file', () => {
    const original = readFileSync(widget, 'utf8');
    writeFileSync(widget, original + '\nexport interface Broken {\n');
    assert.equal(runAndCompare('syntax error').ok, false);
    writeFileSync(widget, original);
    runAndCompare('syntax fixed');
  });

  test('a new group importing from another group, then an edit of the imported file', () => {
    const folder = join(apis, 'gizmos.example.com', 'v1');
    mkdirSync(folder, { recursive: true });
    const imported = join(apis, 'ops.example.org', 'v1beta1', 'shared.ts');
    writeFileSync(imported, 'export interface SharedSpec {\n  /** A size. */\n  size?: string;\n}\n');
    writeFileSync(
      join(folder, 'gizmo.ts'),
      [
        "import type { ObjectMeta } from 'kgen';",
        "import type { SharedSpec } from '../../ops.example.org/v1beta1/shared.js';",
        '',
        '/**',
        ' * Gizmo is a test kind.',
        ' * @kgen:resource',
        ' */',
        'export interface Gizmo {',
        '  metadata: ObjectMeta;',
        '  spec: SharedSpec;',
        '}',
        '',
      ].join('\n'),
    );
    assert.equal(runAndCompare('new group').ok, true);
    // Only the imported file changes; the importing group must follow.
    edit(imported, (t) => addField(t, 'color'));
    const r = runAndCompare('imported type changed');
    assert.ok(r.diff!.stale.some((f) => f.includes('gizmos.example.com')), 'the importing group is regenerated');
    unlinkSync(join(folder, 'gizmo.ts'));
    unlinkSync(imported);
    rmSync(join(apis, 'gizmos.example.com'), { recursive: true });
    const removed = runAndCompare('group removed');
    assert.ok(removed.diff!.extra.some((f) => f.includes('gizmos.example.com')));
  });


  test('a shared folder imported through another shared file: an edit there regenerates the importing group', () => {
    const shared = join(apis, 'common');
    const folder = join(apis, 'gizmos.example.com', 'v1');
    mkdirSync(shared, { recursive: true });
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(shared, 'size.ts'), 'export interface Size {\n  width?: string;\n}\n');
    writeFileSync(join(shared, 'box.ts'), "import type { Size } from './size.js';\n\nexport interface Box {\n  size?: Size;\n}\n");
    writeFileSync(
      join(folder, 'gizmo.ts'),
      "import type { Box } from '../../common/box.js';\n\n/** @kgen:resource */\nexport interface Gizmo {\n  spec: Box;\n}\n",
    );
    assert.equal(runAndCompare('shared folder added').ok, true);
    // Only the shared file the importing group reaches through another shared file changes.
    edit(join(shared, 'size.ts'), (t) => addField(t, 'height'));
    const r = runAndCompare('shared type changed');
    assert.ok(r.diff!.stale.some((f) => f.includes('gizmos.example.com')), 'the importing group is regenerated');
    rmSync(shared, { recursive: true });
    rmSync(join(apis, 'gizmos.example.com'), { recursive: true });
    assert.equal(runAndCompare('shared folder removed').ok, true);
  });
  test("an edit renders again only the edited group's TypeScript files and validators; the others are kept as rendered", () => {
    const before = runAndCompare('before the edit');
    edit(policy, (t) => addField(t, 'renderedAgain'));
    const after = runAndCompare('policy edited');
    const file = (r: typeof before, path: string) => r.files.find((f) => f.path === path) ?? assert.fail(`no ${path}`);
    for (const path of ['models/widgets.example.com/v1.ts', 'routes/widgets.example.com/v1.ts', 'client/widgets.example.com/v1.ts', 'storage/widgets.example.com/v1/widgets.ts', 'validate/widgets.example.com/v1.ts']) {
      assert.equal(file(after, path), file(before, path), `${path}: the same rendered file`);
    }
    assert.notEqual(file(after, 'models/ops.example.org/v1beta1.ts'), file(before, 'models/ops.example.org/v1beta1.ts'));
    assert.match(file(after, 'models/ops.example.org/v1beta1.ts').content, /renderedAgain/);
  });

  test("an edit renders again only the edited group's reference page; the others' are kept, with the navigation printed anew", () => {
    const before = runAndCompare('before the edit');
    const page = (r: typeof before, path: string) => r.files.find((f) => f.path === path)?.content ?? assert.fail(`no ${path}`);
    // A kept page is not rendered again from its version object: a change made to that object after
    // checking (outside the contract, and undone below) does not show, while the edited group's page changes.
    const widgets = before.model.groups.find((g) => g.name === 'widgets.example.com')!.versions[0]!;
    const widget = widgets.kinds.find((k) => k.name === 'Widget')!;
    const description = widget.description;
    widget.description = 'Changed behind the session.';
    try {
      edit(policy, (t) => addField(t, 'pageRenderedAgain'));
      const after = generate(options, session);
      assert.equal(after.ok, true);
      const widgetsPage = `docs/widgets.example.com_${widgets.name}.html`;
      assert.match(page(before, widgetsPage), /id="Widget"/);
      assert.equal(page(after, widgetsPage), page(before, widgetsPage));
      assert.doesNotMatch(page(after, widgetsPage), /Changed behind the session/);
      assert.match(page(after, 'docs/ops.example.org_v1beta1.html'), /pageRenderedAgain/);
      assert.match(page(after, 'docs/search.js'), /pageRenderedAgain/);
    } finally {
      widget.description = description;
    }
    // A new group in the navigation: every page shows it (the kept pages too), as a cold run does.
    const gizmos = join(apis, 'gizmos.example.com');
    mkdirSync(join(gizmos, 'v1'), { recursive: true });
    writeFileSync(join(gizmos, 'v1', 'gizmo.ts'), '/**\n * A gizmo.\n * @kgen:resource\n */\nexport interface Gizmo {\n  spec?: { size?: number };\n}\n');
    try {
      const added = runAndCompare('a group added');
      assert.match(page(added, `docs/widgets.example.com_${widgets.name}.html`), /gizmos\.example\.com_v1\.html/);
    } finally {
      rmSync(gizmos, { recursive: true, force: true });
    }
    runAndCompare('the version removed again');
  });

  test("an edit builds again only the edited group's discovery resource lists; the others are kept", () => {
    const before = runAndCompare('before the edit');
    edit(policy, (t) => addField(t, 'discoveryKept'));
    const after = runAndCompare('policy edited');
    const file = (r: typeof before, path: string) => r.files.find((f) => f.path === path) ?? assert.fail(`no ${path}`);
    assert.equal(file(after, 'discovery/apis/widgets.example.com/v1.json'), file(before, 'discovery/apis/widgets.example.com/v1.json'), 'the same file object');
    assert.notEqual(file(after, 'discovery/apis/ops.example.org/v1beta1.json'), file(before, 'discovery/apis/ops.example.org/v1beta1.json'));
  });

  test("OpenAPI: a version's printed paths are kept while its kinds' resources are unchanged; a field, a kind, a scope, a subresource changed", () => {
    const v3 = 'openapi/v3/apis/ops.example.org/v1beta1.json';
    // The paths' parts: after the document's head, up to the components (openapi.ts v3File).
    const paths = (r: ReturnType<typeof generate>) => {
      const parts = (r.files.find((f) => f.path === v3) ?? assert.fail(`no ${v3}`)).parts ?? assert.fail('not printed by parts');
      return parts.slice(1, parts.findIndex((p) => p.startsWith(',\n  "components"'))).join('');
    };
    const before = runAndCompare('before the edit');
    edit(policy, (t) => addField(t, 'pathsKept'));
    const fieldAdded = runAndCompare('a field added');
    assert.equal(paths(fieldAdded), paths(before));
    edit(policy, (t) => t.replace('@kgen:printcolumn name=Enforcement', '@kgen:printcolumn name=Enforced'));
    runAndCompare('a print column renamed');
    const gadget = join(apis, 'ops.example.org', 'v1beta1', 'gadget.ts');
    writeFileSync(gadget, `/**\n * Gadget is added by the test.\n * @kgen:resource shortNames=gd\n */\nexport interface Gadget {\n  spec: { size?: string };\n}\n`);
    const added = runAndCompare('a kind added');
    assert.match(paths(added), /\/namespaces\/\{namespace\}\/gadgets\/\{name\}"/);
    edit(gadget, (t) => t.replace('@kgen:resource shortNames=gd', '@kgen:resource scope=Cluster shortNames=gd\n * @kgen:subresource status').replace('};\n}', '};\n  status?: { ready?: boolean };\n}'));
    const scoped = runAndCompare('its scope changed, a status subresource added');
    assert.doesNotMatch(paths(scoped), /\/namespaces\/\{namespace\}\/gadgets/);
    assert.match(paths(scoped), /\/gadgets\/\{name\}\/status"/);
    unlinkSync(gadget);
    assert.equal(paths(runAndCompare('the kind removed')), paths(before));
    edit(policy, (t) => t.replace('@kgen:printcolumn name=Enforced', '@kgen:printcolumn name=Enforcement').replace(/ {2}\/\*\* Added by the test\. \*\/\n {2}pathsKept\?: string;\n/, ''));
    runAndCompare('back');
  });

  test("an edit prints again only the edited group's versions in the API snapshot; the others' texts are kept", () => {
    const before = runAndCompare('before the edit');
    const snapshot = (r: typeof before) => r.files.find((f) => f.path === 'api-snapshot.json') ?? assert.fail('no api-snapshot.json');
    assert.ok(snapshot(before).parts, 'printed by parts');
    // A kept version is not printed again from its version object: a change made to it after
    // checking (outside the contract, and undone below) does not show; the edited group's does.
    const widget = before.model.groups.find((g) => g.name === 'widgets.example.com')!.versions[0]!.kinds.find((k) => k.name === 'Widget')!;
    (widget as unknown as Record<string, unknown>).changedBehindTheSession = true;
    try {
      edit(policy, (t) => addField(t, 'snapshotPrintedAgain'));
      const after = generate(options, session);
      assert.equal(after.ok, true);
      assert.doesNotMatch(snapshot(after).content, /changedBehindTheSession/);
      assert.match(snapshot(after).content, /snapshotPrintedAgain/);
      assert.deepEqual(JSON.parse(snapshot(after).content), JSON.parse(snapshot(compile(options)).content));
    } finally {
      delete (widget as unknown as Record<string, unknown>).changedBehindTheSession;
    }
  });

  test("the check's findings, kept per version object: errors in one group, across groups' references and across a group's versions", () => {
    const widgetClass = join(apis, 'widgets.example.com', 'v1', 'widgetclass.ts');
    const codes = (r: ReturnType<typeof generate>) => r.diagnostics.map((d) => d.code);
    const originals = new Map([widget, widgetClass, policy].map((p) => [p, readFileSync(p, 'utf8')]));
    const versionsOf = (r: ReturnType<typeof generate>, group: string) => r.model.groups.find((g) => g.name === group)!.versions;

    // An error the check finds (not the parse) in one group.
    edit(widget, (t) => t.replace('jsonPath=.spec.color\n', 'jsonPath=.spec.colour\n'));
    const broken = runAndCompare('printcolumn path broken');
    assert.equal(broken.ok, false);
    assert.ok(codes(broken).includes('KG024'), codes(broken).join());
    const kept = versionsOf(broken, 'widgets.example.com').map((v) => session.check.get(v));
    assert.ok(kept.every(Boolean), 'each version of the group has its findings kept');
    // Another group edited: the broken group's findings are reported again from the session.
    edit(policy, (t) => addField(t, 'whileBroken'));
    const still = runAndCompare('another group edited while broken');
    assert.ok(codes(still).includes('KG024'));
    assert.deepEqual(versionsOf(still, 'widgets.example.com').map((v) => session.check.get(v)), kept, "the unedited group's findings are the kept ones");
    writeFileSync(widget, originals.get(widget)!);
    assert.equal(runAndCompare('printcolumn path fixed').ok, true);

    // A type of one group referenced from another: an error in it shows in both, and goes away in both.
    const folder = join(apis, 'gizmos.example.com', 'v1');
    const imported = join(apis, 'ops.example.org', 'v1beta1', 'shared.ts');
    mkdirSync(folder, { recursive: true });
    writeFileSync(imported, 'export interface SharedSpec {\n  /** A size. */\n  size?: string;\n}\n');
    const gizmo = join(folder, 'gizmo.ts');
    writeFileSync(
      gizmo,
      "import type { SharedSpec } from '../../ops.example.org/v1beta1/shared.js';\n\n/** @kgen:resource */\nexport interface Gizmo {\n  spec: SharedSpec;\n}\n",
    );
    assert.equal(runAndCompare('group importing another group').ok, true);
    edit(imported, (t) => t.replace('size?: string;', 'size?: string;\n  /** @kgen:listType set */\n  parts?: SharedSpec[];\n  /** Itself. */\n  next?: SharedSpec;'));
    const referenced = runAndCompare('error in a type another group references');
    assert.equal(referenced.ok, false);
    assert.ok(codes(referenced).includes('KG016') && codes(referenced).includes('KG025'), codes(referenced).join());
    // Only the importing group edited: the imported group's findings are kept, the importer's found again.
    edit(gizmo, (t) => t.replace('spec: SharedSpec;', 'spec: SharedSpec;\n  /** Added by the test. */\n  note?: string;'));
    assert.equal(runAndCompare('importing group edited while the reference is broken').ok, false);
    writeFileSync(imported, 'export interface SharedSpec {\n  /** A size. */\n  size?: string;\n}\n');
    assert.equal(runAndCompare('referenced type fixed').ok, true);
    rmSync(folder.replace(/\/v1$/, ''), { recursive: true });
    unlinkSync(imported);
    assert.equal(runAndCompare('importing group removed').ok, true);

    // A conflict across a group's versions (one short name for two kinds), then another group edited, then the fix.
    edit(widgetClass, (t) => t.replace('shortNames=wdc', 'shortNames=wd'));
    const conflict = runAndCompare('short name conflict across versions');
    assert.ok(codes(conflict).includes('KG023'), codes(conflict).join());
    edit(policy, (t) => addField(t, 'whileConflicting'));
    assert.ok(codes(runAndCompare('another group edited while conflicting')).includes('KG023'));
    writeFileSync(widgetClass, originals.get(widgetClass)!);
    writeFileSync(policy, originals.get(policy)!);
    assert.equal(runAndCompare('conflict removed').ok, true);
  });

  test('a source whose stat identity is the recorded one is not read again; an edit, even of the same size, right after another, is seen', async () => {
    const own = copyTree(join(REPO, 'apis'), join(dir, 'apis-stamps'));
    const opts: GenerateOptions = { apisDir: own, outDir: join(dir, 'generated-stamps') };
    const s = newGenerateSession();
    const target = join(own, 'ops.example.org', 'v1beta1', 'policy.ts');
    /** Whether the session's compile, which statted `target` at most at `until`, must have left it unstamped. */
    let until = 0;
    const recent = () => statSync(target).ctimeMs >= until - 1_000;
    const same = (what: string) => {
      const warm = compile(opts, s);
      until = Date.now();
      const cold = compile(opts);
      assert.deepEqual(warm.diagnostics.map((d) => formatDiagnostic(d)), cold.diagnostics.map((d) => formatDiagnostic(d)), `${what}: diagnostics`);
      assert.deepEqual(warm.files.map((f) => [f.path, f.content]), cold.files.map((f) => [f.path, f.content]), `${what}: emitted files`);
    };
    same('just copied');
    // Changed within the margin before the stat (true unless the compile took over a second): not stamped, read every time.
    if (recent()) assert.equal(s.parse.files.stamps!.has(target), false, 'a file changed within the margin is not stamped');
    await new Promise((r) => setTimeout(r, 1_100));
    same('older than the margin');
    assert.equal(s.parse.files.stamps!.has(target), true, 'stamped once older than the margin');
    const text = readFileSync(target, 'utf8');
    const field = /^ {2}(\w+)\??:/m.exec(text.slice(text.indexOf('export interface')))![1]!;
    const renamed = (c: string) => text.replace(new RegExp(`^( {2})${field}(\\??:)`, 'm'), `$1${c.repeat(field.length)}$2`);
    assert.notEqual(renamed('x'), text);
    assert.equal(renamed('x').length, text.length);
    writeFileSync(target, renamed('x'));
    same('an edit of the same size');
    if (recent()) assert.equal(s.parse.files.stamps!.has(target), false);
    writeFileSync(target, renamed('y'));
    same('another one right after');
    writeFileSync(target, text);
    same('back');
    unlinkSync(join(own, 'widgets.example.com', 'v1', 'widget.ts'));
    same('a file removed');
  });

  test("an output folder whose stat identity is the recorded one is not listed again; a file or folder added or removed behind the session's back is seen", async () => {
    const own = copyTree(join(REPO, 'apis'), join(dir, 'apis-folders'));
    const out = join(dir, 'generated-folders');
    const opts: GenerateOptions = { apisDir: own, outDir: out };
    const s = newGenerateSession();
    const same = (what: string) => {
      const warm = generate(opts, s);
      const cold = compile(opts);
      assert.equal(warm.ok, true, what);
      assert.deepEqual(listTree(out), cold.files.map((f) => f.path).sort(), `${what}: files on disk`);
      for (const f of cold.files) assert.equal(readFileSync(join(out, f.path), 'utf8'), f.content, `${what}: ${f.path} on disk`);
      return warm;
    };
    same('first run');
    same('listed once');
    await new Promise((r) => setTimeout(r, 1_100));
    same('older than the margin');
    const crds = join(out, 'crds');
    assert.ok(s.written.folders!.has(crds), 'the listing of a folder older than the margin is kept');
    // Right after the listing was recorded: the folder's new ctime differs from the recorded one.
    writeFileSync(join(crds, 'stray.yaml'), 'kind: Stray\n');
    const strayFile = same('a stray file added');
    assert.deepEqual(strayFile.diff!.extra, [join('crds', 'stray.yaml')]);
    await new Promise((r) => setTimeout(r, 1_100));
    same('older again');
    mkdirSync(join(crds, 'stray', 'deeper'), { recursive: true });
    writeFileSync(join(crds, 'stray', 'deeper', 'x.yaml'), 'kind: Stray\n');
    same('a stray folder added');
    await new Promise((r) => setTimeout(r, 1_100));
    same('older again');
    const crd = readdirSync(crds).find((f) => f.endsWith('.yaml'))!;
    unlinkSync(join(crds, crd));
    assert.deepEqual(same('an output file removed').diff!.missing, [join('crds', crd)]);
  });

  test('an output file changed behind its back is rewritten', () => {
    const file = join(options.outDir, 'index.ts');
    const content = readFileSync(file, 'utf8');
    writeFileSync(file, content + '// edited\n');
    const r = runAndCompare('output edited');
    assert.ok(r.diff!.stale.includes('index.ts'));
  });
});

describe('what --watch checks before it writes a regeneration', () => {
  const root = tempDir('kgen-session-read-');
  after(() => rmSync(root, { recursive: true, force: true }));

  // A compile may read a file in the middle of a save (after the truncation, before the write)
  // whose event is delivered only after the settle's check of events: the text the compile read is
  // compared with the file's, for the files of the regeneration's events.
  test('sourceChangedSinceRead: true once a file the compile read has another text or is gone; false for unchanged files and files it did not read', () => {
    const own = copyTree(fixtureApis('names'), join(root, 'apis'));
    const s = newGenerateSession();
    const kinds = join(own, 'names.example.com', 'v1', 'kinds.ts');
    const original = readFileSync(kinds, 'utf8');
    writeFileSync(kinds, ''); // what a compile reads between a save's truncation and its write
    compile({ apisDir: own }, s);
    assert.equal(sourceUnchanged(s, kinds), true);
    assert.equal(sourceChangedSinceRead(s, kinds), false);
    writeFileSync(kinds, original); // the save's write, its event not yet seen
    assert.equal(sourceChangedSinceRead(s, kinds), true);
    writeFileSync(join(own, '.kinds.ts.swp'), 'x'); // an editor's file, never read
    assert.equal(sourceChangedSinceRead(s, join(own, '.kinds.ts.swp')), false);
    assert.equal(sourceChangedSinceRead(s, join(own, 'names.example.com')), false);
    compile({ apisDir: own }, s);
    assert.equal(sourceChangedSinceRead(s, kinds), false);
    unlinkSync(kinds);
    assert.equal(sourceChangedSinceRead(s, kinds), true);
  });
});
