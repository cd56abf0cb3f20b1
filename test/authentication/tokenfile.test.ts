import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseCSV } from '../../runtime/authentication/csv.js';
import { bearerToken, loadTokenFile, parseTokenFile, tokenFileAuthenticator } from '../../runtime/authentication/tokenfile.js';
import { request } from '../server/filters/helpers.js';

describe('CSV records (Go encoding/csv)', () => {
  it('reads quoted fields with commas, escaped quotes and CRLF, skipping blank lines', () => {
    assert.deepEqual(parseCSV('a,b,c\r\n\n"x,y","say ""hi""",z\nlast,,'), [['a', 'b', 'c'], ['x,y', 'say "hi"', 'z'], ['last', '', '']]);
  });
  it('refuses a bare quote', () => {
    assert.throws(() => parseCSV('a,b"c'), /bare " in non-quoted-field/);
    assert.throws(() => parseCSV('"abc'), /extraneous or missing " in quoted-field/);
  });
});

describe('token file (kube’s --token-auth-file)', () => {
  it('maps token to user, uid and groups', () => {
    const warnings: string[] = [];
    const tokens = parseTokenFile('t1,alice,u1,"dev,ops"\nt2,bob,u2\n,nobody,u3\nt2,bobby,u4\n', 'tokens.csv', (w) => warnings.push(w));
    assert.deepEqual(tokens.get('t1'), { username: 'alice', uid: 'u1', groups: ['dev', 'ops'] });
    assert.deepEqual(tokens.get('t2'), { username: 'bobby', uid: 'u4', groups: [] });
    assert.equal(tokens.size, 2);
    assert.deepEqual(warnings, [
      "empty token has been found in token file 'tokens.csv', record number '3'",
      "duplicate token has been found in token file 'tokens.csv', record number '4'",
    ]);
  });

  it('refuses records with fewer than three columns', () => {
    assert.throws(() => parseTokenFile('t1,alice\n', 'f.csv'), /token file 'f.csv' must have at least 3 columns \(token, user name, user uid\), found 2/);
  });

  it('loads from a file and names it when it cannot', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kgen-tokens-'));
    try {
      writeFileSync(join(dir, 'tokens.csv'), 'secret,alice,1\n');
      assert.equal(loadTokenFile(join(dir, 'tokens.csv')).get('secret')?.username, 'alice');
      assert.throws(() => loadTokenFile(join(dir, 'missing.csv')), /cannot read token file '.*missing\.csv'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('authenticates `Authorization: Bearer`, removing the header; unknown or empty tokens are errors', () => {
    const auth = tokenFileAuthenticator(parseTokenFile('secret,alice,1,dev\n', 'f'));
    const ok = request('GET', '/api', { authorization: 'Bearer secret' });
    assert.deepEqual(auth.authenticate(ok), { user: { username: 'alice', uid: '1', groups: ['dev'] } });
    assert.equal(ok.headers.authorization, undefined);
    assert.deepEqual(auth.authenticate(request('GET', '/api', { authorization: 'Bearer nope' })), { error: 'invalid bearer token' });
    assert.deepEqual(auth.authenticate(request('GET', '/api', { authorization: 'bearer  x' })), { error: 'invalid bearer token' });
    assert.equal(auth.authenticate(request('GET', '/api', { authorization: 'Basic YTpi' })), undefined);
    assert.equal(auth.authenticate(request('GET', '/api')), undefined);
  });

  it('parses the bearer token as kube does', () => {
    assert.equal(bearerToken(request('GET', '/', { authorization: '  Bearer abc  ' })), 'abc');
    assert.equal(bearerToken(request('GET', '/', { authorization: 'Bearer' })), undefined);
    assert.equal(bearerToken(request('GET', '/', { authorization: 'Bearer  abc' })), '');
  });
});
