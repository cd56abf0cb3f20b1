/**
 * A Secret's contents never appear in an error message (they reach the client's terminal, the
 * server's logs and the audit log's responseStatus at every level, Metadata included):
 * - a dockerconfigjson Secret whose value is not JSON: kube's `<secret contents redacted>` and
 *   Go's syntax error, which names one character (Node's message quoted the value);
 * - a malformed JSON or YAML body: Go's syntax error and the YAML parser's first line, without
 *   the excerpt of the body Node's JSON.parse and the YAML parser's code frame carried.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { goJSONSyntaxError } from '../../runtime/api/json-syntax.js';
import { startTestServer, type TestServer } from '../server/testserver.js';

const SECRETS = '/api/v1/namespaces/default/secrets';
const SECRET = 'hunter2secret';
let ts: TestServer;

before(async () => {
  ts = await startTestServer();
});
after(() => ts?.close());

describe('error messages do not repeat a Secret\'s contents', () => {
  it('a dockerconfigjson value that is not JSON: kube\'s redacted message, with Go\'s syntax error', async () => {
    const body = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'pull' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from(`{"auths": ${SECRET}}`).toString('base64') } };
    const res = await ts.request('POST', SECRETS, { body });
    assert.equal(res.status, 422);
    assert.equal(res.body.message, 'Secret "pull" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character \'h\' looking for beginning of value');
    assert.ok(!res.text.includes(SECRET));
  });

  it("a dockerconfigjson value nested a million deep: Go's depth error, not a stack overflow (a 500)", async () => {
    // The body's nesting limit cannot see into a base64 value: the scanner bounds its own depth.
    const body = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'deep' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from('['.repeat(1_000_000)).toString('base64') } };
    const res = await ts.request('POST', SECRETS, { body });
    assert.equal(res.status, 422);
    assert.equal(res.body.message, 'Secret "deep" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character \'[\' exceeded max depth');
  });

  for (const [what, text, contentType, message] of [
    ['a JSON body', `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"x"},"stringData":{"a":${SECRET}}}`, 'application/json', "couldn't get version/kind; json parse error: invalid character 'h' looking for beginning of value"],
    ['a JSON body with text after it', `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"x"}} ${SECRET}`, 'application/json', "couldn't get version/kind; json parse error: invalid character 'h' after top-level value"],
    ['a YAML body', `apiVersion: v1\nkind: Secret\nmetadata: {name: y}\nstringData: {a: [${SECRET}}\n`, 'application/yaml', undefined],
  ] as const) {
    it(`${what} that does not parse: 400 without the body's text`, async () => {
      const res = await ts.request('POST', SECRETS, { body: text, contentType });
      assert.equal(res.status, 400);
      if (message) assert.equal(res.body.message, message);
      else assert.match(res.body.message, /^couldn't get version\/kind; yaml parse error: .* at line 4, column \d+$/);
      assert.ok(!res.text.includes(SECRET), res.text);
    });
  }
});

describe('goJSONSyntaxError: Go\'s encoding/json scanner messages', () => {
  it('names the character and what was expected, as Go does', () => {
    const cases: [string, string | undefined][] = [
      ['{"a":[1,{"b":null}],"c":-1.5e+3}', undefined],
      ['', 'unexpected end of JSON input'],
      ['{"a":', 'unexpected end of JSON input'],
      ['{"a" 1}', "invalid character '1' after object key"],
      ['{"a":1 "b":2}', 'invalid character \'"\' after object key:value pair'],
      ['[1 2]', "invalid character '2' after array element"],
      ['{1:2}', "invalid character '1' looking for beginning of object key string"],
      ['trux', "invalid character 'x' in literal true (expecting 'e')"],
      ['"a\u0001"', "invalid character '\\x01' in string literal"],
      ['"\\q"', "invalid character 'q' in string escape code"],
      ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
      ['-x', "invalid character 'x' in numeric literal"],
      ['1.x', "invalid character 'x' after decimal point in numeric literal"],
      ['1e+', 'unexpected end of JSON input'],
      ["'a'", "invalid character '\\'' looking for beginning of value"],
      ['1 2', "invalid character '2' after top-level value"],
      ['['.repeat(10_000) + ']'.repeat(10_000), undefined],
      ['['.repeat(10_001), "invalid character '[' exceeded max depth"],
    ];
    for (const [text, message] of cases) assert.equal(goJSONSyntaxError(text), message, text);
  });
});
