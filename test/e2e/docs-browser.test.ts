/**
 * The HTML API reference in a real browser: Debian's headless Chromium (/usr/bin/chromium, driven
 * by puppeteer-core, no downloaded browser) opens `kgen docs` output of the bundled APIs and of
 * the held-out-style fixture APIs, and `/docs/` served by `kgen serve`. Every kind and field of
 * the model must be on its page, the search must find a field, every internal link must resolve,
 * and the network log must show no request leaving the page's own origin. Screenshots go to
 * test/artifacts/ (gitignored). /docs/ is authorised like /openapi.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { compile } from '../../generator/index.js';
import type { ApiVersion, Property, Schema } from '../../generator/model.js';
import { startServer, type RunningServer } from '../../runtime/controlplane/index.js';
import { startRBACServer } from '../authorization/rbacserver.js';
import { httpsClient } from '../authorization/https.js';
import { KGEN_BIN, REPO, removeDir, tempDir } from './harness.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(REPO, 'test', 'artifacts');

/** The element ids the reference must hold for a version: kinds, their fields, named types and theirs. */
function expectedIds(version: ApiVersion): string[] {
  const ids: string[] = [];
  const walk = (prefix: string, props: readonly Property[]) => {
    for (const p of props) {
      const id = `${prefix}.${p.name}`;
      ids.push(id);
      let inner: Schema = p.schema;
      while (inner.type === 'array' || inner.type === 'map') inner = inner.type === 'array' ? inner.items : inner.values;
      if (inner.type === 'object') walk(id, inner.properties);
    }
  };
  for (const kind of version.kinds) {
    ids.push(kind.name);
    walk(kind.name, kind.schema.properties);
  }
  for (const type of version.types) {
    ids.push(`type-${type.name}`);
    if (type.schema.type === 'object') walk(`type-${type.name}`, type.schema.properties);
  }
  return ids;
}

function userVersions(apisDir: string): ApiVersion[] {
  const result = compile({ apisDir, builtins: false });
  assert.ok(result.ok, `${apisDir} compiles`);
  return result.model.groups.flatMap((g) => g.versions);
}

const pageOf = (v: ApiVersion) => `${v.group || 'core'}_${v.name}.html`;

/** Opens a page recording every request; fails on any request that leaves `origin`. */
async function open(browser: Browser, url: string, sameOrigin: (u: string) => boolean): Promise<{ page: Page; external: string[]; refused: string[] }> {
  const page = await browser.newPage();
  const external: string[] = [];
  const refused: string[] = [];
  page.on('request', (req) => {
    if (!sameOrigin(req.url())) external.push(req.url());
  });
  // What the served pages' Content-Security-Policy blocks (an inline style or script) is lost on /docs/.
  page.on('console', (msg) => {
    if (msg.text().includes('Content Security Policy')) refused.push(msg.text());
  });
  await page.setViewport({ width: 1400, height: 1000 });
  const res = await page.goto(url, { waitUntil: 'load' });
  assert.ok(res === null || res.ok(), `${url}: ${res?.status()}`);
  return { page, external, refused };
}

/** Every `a[href]` of every page (same origin) resolves to a page that has the anchor. */
async function checkLinks(browser: Browser, base: string, pages: string[], sameOrigin: (u: string) => boolean): Promise<number> {
  const idsByPage = new Map<string, Set<string>>();
  const links: { from: string; href: string }[] = [];
  for (const name of pages) {
    const { page, external } = await open(browser, new URL(name, base).href, sameOrigin);
    assert.deepEqual(external, [], `${name} made no external request`);
    const { ids, hrefs } = await page.evaluate(() => ({
      ids: [...document.querySelectorAll('[id]')].map((e) => e.id),
      hrefs: [...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href),
    }));
    idsByPage.set(new URL(name, base).href, new Set(ids));
    for (const href of hrefs) links.push({ from: name, href });
    await page.close();
  }
  let checked = 0;
  for (const { from, href } of links) {
    const url = new URL(href);
    assert.ok(sameOrigin(href), `${from} links only within the reference: ${href}`);
    const ids = idsByPage.get(href.split('#')[0]!);
    assert.ok(ids, `${from}: link target ${href} is a page of the reference`);
    if (url.hash) assert.ok(ids.has(decodeURIComponent(url.hash.slice(1))), `${from}: anchor ${url.hash} exists on ${url.pathname}`);
    checked++;
  }
  return checked;
}

async function checkSearch(page: Page, query: string, expect: string): Promise<void> {
  await page.click('#search');
  await page.type('#search', query);
  await page.waitForSelector('#results a');
  const hits = await page.$$eval('#results a', (as) => as.map((a) => a.textContent));
  assert.ok(hits.includes(expect), `search "${query}" finds ${expect}: ${hits.join(', ')}`);
  const first = await page.$$eval('#results a', (as, want) => (as.find((a) => a.textContent === want) as HTMLAnchorElement).href, expect);
  await page.goto(first);
  const anchor = decodeURIComponent(new URL(page.url()).hash.slice(1));
  // Widget.spec.replicas is documented on WidgetSpec's row (type-WidgetSpec.replicas) when spec is a named type.
  assert.ok(anchor.endsWith(`.${expect.split('.').pop()}`), `${anchor} is the field's row`);
  assert.ok(await page.$(`[id="${anchor}"]`), `the result's anchor ${anchor} exists`);
}

describe('the API reference in headless Chromium', () => {
  let browser: Browser;
  let work: string;

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is required (Debian's chromium package; .ci/run installs it)`);
    mkdirSync(ARTIFACTS, { recursive: true });
    work = tempDir('docs');
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  });
  after(async () => {
    await browser?.close();
    if (work) removeDir(work);
  });

  for (const [label, apisDir, searchFor] of [
    ['bundled', join(REPO, 'apis'), ['replicas', 'Widget.spec.replicas']],
    ['held-out-style', join(REPO, 'test/fixtures/server-apis/apis'), ['color', 'Widget.spec.color']],
  ] as const) {
    it(`kgen docs of the ${label} APIs: every kind and field, search, links, no external request`, async () => {
      const out = join(work, label);
      const run = spawnSync(process.execPath, [KGEN_BIN, 'docs', apisDir, '--out', out], { cwd: REPO, encoding: 'utf8', timeout: 120_000 });
      assert.equal(run.status, 0, run.stderr);
      const versions = userVersions(apisDir);
      const base = pathToFileURL(out + '/').href;
      const sameOrigin = (u: string) => u.startsWith('file://') || u.startsWith('data:') || u === 'about:blank';
      for (const version of versions) {
        const { page, external } = await open(browser, new URL(pageOf(version), base).href, sameOrigin);
        const ids = new Set(await page.$$eval('[id]', (els) => els.map((e) => e.id)));
        const missing = expectedIds(version).filter((id) => !ids.has(id));
        assert.deepEqual(missing, [], `${pageOf(version)} documents every kind and field`);
        assert.deepEqual(external, []);
        await page.screenshot({ path: join(ARTIFACTS, `docs-${label}-${pageOf(version).replace(/\.html$/, '')}.png`) });
        await page.close();
      }
      const pages = readdirSync(out).filter((n) => n.endsWith('.html'));
      assert.ok((await checkLinks(browser, base, pages, sameOrigin)) > 0);
      const { page, external } = await open(browser, new URL('index.html', base).href, sameOrigin);
      await checkSearch(page, searchFor[0], searchFor[1]);
      await page.screenshot({ path: join(ARTIFACTS, `docs-${label}-search.png`) });
      assert.deepEqual(external, []);
      await page.close();
    });
  }

  it('kgen serve serves the same reference at /docs/ with no request leaving the server', async () => {
    const dataDir = tempDir('docs-serve');
    let server: RunningServer | undefined;
    try {
      server = await startServer({ generatedDir: join(REPO, 'generated'), storage: 'memory:', port: 0, dataDir, insecureDevMode: true, tls: false, controllers: false });
      const origin = new URL(server.url).origin;
      const sameOrigin = (u: string) => u.startsWith(origin) || u.startsWith('data:');
      const versions = userVersions(join(REPO, 'apis'));
      for (const version of versions) {
        const { page, external, refused } = await open(browser, `${server.url}/docs/${pageOf(version)}`, sameOrigin);
        const ids = new Set(await page.$$eval('[id]', (els) => els.map((e) => e.id)));
        assert.deepEqual(expectedIds(version).filter((id) => !ids.has(id)), []);
        assert.deepEqual(external, []);
        assert.deepEqual(refused, [], 'the server\'s Content-Security-Policy blocks nothing the page uses (an inline style would lose its indentation)');
        await page.close();
      }
      const pages = ['index.html', ...versions.map(pageOf)];
      assert.ok((await checkLinks(browser, `${server.url}/docs/`, pages, sameOrigin)) > 0);
      const { page, external } = await open(browser, `${server.url}/docs`, sameOrigin);
      assert.equal(new URL(page.url()).pathname, '/docs/', '/docs redirects to /docs/');
      await page.screenshot({ path: join(ARTIFACTS, 'docs-served-index.png') });
      await checkSearch(page, 'spec.replicas', 'Widget.spec.replicas');
      await page.screenshot({ path: join(ARTIFACTS, 'docs-served-field.png') });
      assert.deepEqual(external, []);
      await page.close();
    } finally {
      await server?.close();
      removeDir(dataDir);
    }
  });
});

it('/docs/ is authorised like /openapi: any authenticated user, not anonymous ones', async () => {
  const rbac = await startRBACServer();
  try {
    const alice = rbac.as.alice!;
    const docs = await alice('GET', '/docs/', { headers: { accept: 'text/html' } });
    assert.equal(docs.status, 200);
    assert.match(docs.text, /<title>API reference<\/title>/);
    assert.equal((await alice('GET', '/openapi/v2')).status, 200);
    const anonymous = httpsClient(rbac.server.url, rbac.server.credentials!.servingCA!);
    try {
      const openapi = (await anonymous.request('GET', '/openapi/v2')).status;
      assert.ok(openapi === 401 || openapi === 403);
      assert.equal((await anonymous.request('GET', '/docs/')).status, openapi);
    } finally {
      anonymous.close();
    }
    assert.equal((await alice('GET', '/docs/missing.html')).status, 404);
  } finally {
    await rbac.close();
  }
});
