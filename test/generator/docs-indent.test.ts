/**
 * The API reference indents a nested field's row with a class from docs/style.css, never a style
 * attribute: kgen serve sends /docs/ with `style-src 'self'`, which refuses inline styles, so an
 * attribute would indent the page opened as a file but not the page served
 * (test/e2e/docs-browser.test.ts proves no inline style is refused in Chromium).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile } from '../../generator/index.js';
import { cleanedTempDirs, writeApis } from './helpers.js';

const tempDir = cleanedTempDirs();

describe('docs: nested fields', () => {
  it('are indented by depth classes the stylesheet defines, with no style attribute', () => {
    const apis = writeApis(tempDir('docs-indent'), {
      'deep.example.com/v1/gadget.ts': `/** @kgen:resource */
export interface Gadget {
  spec?: { outer?: { inner?: { leaf?: string } } };
}
`,
    });
    const result = compile({ apisDir: apis, builtins: false });
    assert.ok(result.ok, JSON.stringify(result.diagnostics));
    const files = new Map(result.files.map((f) => [f.path, f.content]));
    const page = files.get('docs/deep.example.com_v1.html')!;
    const css = files.get('docs/style.css')!;
    assert.ok(page && css);
    assert.doesNotMatch(page, /style=/);
    const classOf = (id: string) => new RegExp(`<tr id="${id.replace(/\./g, '\\.')}"[^>]*><td class="([^"]*)"`).exec(page)?.[1];
    assert.equal(classOf('Gadget.spec'), 'name');
    assert.equal(classOf('Gadget.spec.outer'), 'name d1');
    assert.equal(classOf('Gadget.spec.outer.inner'), 'name d2');
    assert.equal(classOf('Gadget.spec.outer.inner.leaf'), 'name d3');
    for (const d of [1, 2, 3]) assert.match(css, new RegExp(`td\\.name\\.d${d} \\{ padding-left: [0-9.]+em; \\}`));
  });
});
