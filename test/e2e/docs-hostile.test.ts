/**
 * The API reference with hostile text in the API types: descriptions, an enum value, a default,
 * a pattern, a printer column and a CEL rule message holding `</script>`, tags and attribute
 * breakers. Opened in headless Chromium (as docs-browser.test.ts), no script may run but
 * search.js (no alert, no element the text names), the text must read as written, and the search
 * must find and show it as text. The pages are also served by `/docs/`: text/html, nosniff and a
 * Content-Security-Policy that allows only the server's own scripts.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import puppeteer, { type Browser } from 'puppeteer-core';
import { compile } from '../../generator/index.js';
import { emitDocs } from '../../generator/emit/docs.js';
import { docsServer } from '../../runtime/controlplane/docs.js';
import { removeDir, tempDir } from './harness.js';

const CHROMIUM = '/usr/bin/chromium';
const XSS = `</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">"'><svg onload=window.pwned=3>`;

const API = `import type { int32 } from 'kgen';

/**
 * Probe is hostile ${XSS} text.
 * @kgen:resource scope=Namespaced
 * @kgen:printcolumn name=Mode type=string jsonPath=.spec.mode description="column ${XSS.replace(/"/g, '')}"
 */
export interface Probe {
  spec: ProbeSpec;
}

/** ProbeSpec says ${XSS}. */
export interface ProbeSpec {
  /**
   * Mode is one of the values ${XSS}.
   * @default "</script><script>window.pwned=4</script>"
   */
  mode?: '</script><script>window.pwned=4</script>' | 'plain';
  /**
   * Name ${XSS}.
   * @pattern ^<script>[a-z]+</script>$
   * @kgen:validation rule="self.size() > 0" message="<img src=x onerror=window.pwned=5>"
   */
  name?: string;
  /** Count. */
  count?: int32;
}
`;

describe('the API reference with hostile text in the API types', () => {
  let browser: Browser;
  let work: string;
  let docs: string;

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is required`);
    work = tempDir('docs-hostile');
    const apis = join(work, 'apis', 'probes.example.com', 'v1');
    mkdirSync(apis, { recursive: true });
    writeFileSync(join(apis, 'probe.ts'), API);
    const result = compile({ apisDir: join(work, 'apis'), builtins: false });
    assert.ok(result.ok, JSON.stringify(result.diagnostics ?? []).slice(0, 2000));
    docs = join(work, 'out');
    for (const file of emitDocs(result.model)) {
      mkdirSync(join(docs, file.path, '..'), { recursive: true });
      writeFileSync(join(docs, file.path), file.content);
    }
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  });

  after(async () => {
    await browser?.close();
    if (work) removeDir(work);
  });

  it('runs no script the text holds, and shows the text as written', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(pathToFileURL(join(docs, 'docs', 'probes.example.com_v1.html')).href, { waitUntil: 'load' });
    const seen = await page.evaluate(() => ({
      pwned: (window as unknown as { pwned?: number }).pwned,
      scripts: [...document.querySelectorAll('script')].map((s) => s.getAttribute('src')),
      injected: document.querySelectorAll('main img, main svg, main b').length,
      text: document.querySelector('main')!.textContent ?? '',
    }));
    assert.equal(seen.pwned, undefined, 'no injected script ran');
    assert.deepEqual(dialogs, []);
    assert.deepEqual(seen.scripts, ['search.js'], 'the only script is the reference\'s own');
    assert.equal(seen.injected, 0, 'no element the text names');
    assert.ok(seen.text.includes(`Probe is hostile ${XSS} text.`), 'the description reads as written');
    assert.ok(seen.text.includes('^<script>[a-z]+</script>$'), 'the pattern reads as written');
    assert.ok(seen.text.includes('<img src=x onerror=window.pwned=5>'), 'the rule message reads as written');
    // The search index holds the text; its results show it as text.
    await page.type('#search', 'hostile');
    await page.waitForSelector('#results a');
    const after = await page.evaluate(() => ({ pwned: (window as unknown as { pwned?: number }).pwned ?? null, injected: document.querySelectorAll('#results img, #results svg, #results script').length }));
    assert.deepEqual(after, { pwned: null, injected: 0 });
    await page.close();
  });

  it('is served as text/html with nosniff and a CSP that allows only the server\'s scripts', () => {
    const serve = docsServer(docs);
    for (const name of ['index.html', 'probes.example.com_v1.html', 'search.js', 'style.css']) {
      const res = serve(`/docs/${name}`, ['docs', name]);
      assert.ok(res && res.kind === 'object' && res.code === 200, name);
      assert.equal(res.headers['X-Content-Type-Options'], 'nosniff', name);
      assert.match(String(res.headers['Content-Security-Policy']), /script-src 'self'(;|$)/, name);
      assert.match(res.contentType, name.endsWith('.html') ? /^text\/html; charset=utf-8$/ : name.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
    }
    assert.equal(serve('/docs/../secret', ['docs', '..', 'secret']), undefined);
    assert.equal(serve('/docs/<script>', ['docs', '<script>']), undefined);
    // The index is JavaScript that a parser reads back to the same text.
    const index = readFileSync(join(docs, 'docs', 'search.js'), 'utf8');
    const INDEX = new Function(`${index.split('\n(function')[0]}; return INDEX;`)() as { t: string; d: string }[];
    assert.ok(INDEX.some((e) => e.d.includes('</script><script>window.pwned=1</script>')));
  });
});
