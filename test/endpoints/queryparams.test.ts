/**
 * Integer query parameters are int64s read by kube's parameter codec (strconv.ParseInt(s, 10, 64)):
 * a value beyond int64, or one that is no number, is the handlers' 400 with Go's error text.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectBadRequest, startTestServer, type TestServer } from '../server/testserver.js';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const BEYOND = '99999999999999999999';

describe('int64 query parameters: limit, timeoutSeconds, gracePeriodSeconds', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
    const r = await t.request('POST', CONFIGMAPS, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } } });
    assert.equal(r.status, 201, r.text);
  });
  after(() => t.close());

  const badRequest = (method: string, path: string, message: string) => expectBadRequest(t, method, path, message);

  it('beyond int64: value out of range', async () => {
    const message = `strconv.ParseInt: parsing "${BEYOND}": value out of range`;
    await badRequest('GET', `${CONFIGMAPS}?limit=${BEYOND}`, message);
    await badRequest('GET', `${CONFIGMAPS}?watch=true&timeoutSeconds=${BEYOND}`, message);
    await badRequest('DELETE', `${CONFIGMAPS}/a?gracePeriodSeconds=${BEYOND}`, message);
    await badRequest('GET', `${CONFIGMAPS}?limit=-9223372036854775809`, 'strconv.ParseInt: parsing "-9223372036854775809": value out of range');
  });

  it('no number: invalid syntax', async () => {
    await badRequest('GET', `${CONFIGMAPS}?limit=ten`, 'strconv.ParseInt: parsing "ten": invalid syntax');
    await badRequest('GET', `${CONFIGMAPS}?limit=1.5`, 'strconv.ParseInt: parsing "1.5": invalid syntax');
    await badRequest('DELETE', `${CONFIGMAPS}/a?gracePeriodSeconds=soon`, 'strconv.ParseInt: parsing "soon": invalid syntax');
  });

  it('int64 values are read: the largest limit, a signed one', async () => {
    const r = await t.request('GET', `${CONFIGMAPS}?limit=9223372036854775807`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.items.length, 1);
    const plus = await t.request('GET', `${CONFIGMAPS}?limit=%2B1`);
    assert.equal(plus.status, 200, plus.text);
    const del = await t.request('DELETE', `${CONFIGMAPS}/a?gracePeriodSeconds=0`);
    assert.equal(del.status, 200, del.text);
  });
});
