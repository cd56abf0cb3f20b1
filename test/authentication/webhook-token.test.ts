/**
 * The TokenReview webhook authenticator: the review it sends, the user it believes, its errors,
 * and its cache (answers kept for the TTL under a hash of the token; failures not kept).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { tokenWebhookAuthenticator } from '../../runtime/authentication/webhook-token.js';
import { withAudiences } from '../../runtime/authentication/authenticator.js';
import type { IncomingAPIRequest } from '../../runtime/server/handler.js';

const request = (token?: string) => ({ headers: token === undefined ? {} : { authorization: `Bearer ${token}` } }) as unknown as IncomingAPIRequest;

describe('token webhook authenticator', () => {
  it('authenticates through TokenReview, caches answers, and reports refusals and failures', async () => {
    const reviews: any[] = [];
    let failing = false;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const review = JSON.parse(body);
        reviews.push(review);
        if (failing) return void res.writeHead(500).end();
        const ok = review.spec.token === 'good';
        res.end(JSON.stringify({ status: ok ? { authenticated: true, user: { username: 'ann', uid: 'u1', groups: ['g'] }, audiences: ['api'] } : { authenticated: false, error: 'expired' } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    let now = 0;
    const authn = tokenWebhookAuthenticator({
      endpoint: { file: 't', url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`), insecureSkipTLSVerify: false },
      cacheTTLMs: 1000,
      audiences: ['api'],
      now: () => now,
    });
    try {
      assert.equal(authn.authenticate(request()), undefined, 'no token: not this authenticator\'s business');
      const req = request('good');
      assert.deepEqual(await authn.authenticate(req), { user: { username: 'ann', uid: 'u1', groups: ['g'] }, audiences: ['api'] });
      assert.equal(req.headers.authorization, undefined, 'the credential is consumed');
      assert.deepEqual(reviews[0], { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: { creationTimestamp: null }, spec: { token: 'good', audiences: ['api'] }, status: { user: {} } });
      assert.deepEqual(await authn.authenticate(request('bad')), { error: 'token webhook: expired' });
      now = 500;
      assert.deepEqual(await authn.authenticate(request('good')), { user: { username: 'ann', uid: 'u1', groups: ['g'] }, audiences: ['api'] });
      assert.deepEqual(await authn.authenticate(request('bad')), { error: 'token webhook: expired' });
      assert.equal(reviews.length, 2, 'both answers cached');
      now = 1500;
      failing = true;
      const failed = await authn.authenticate(request('good'));
      assert.match((failed as { error: string }).error, /^token webhook: Post ".*": the server responded with the status code 500$/);
      failing = false;
      assert.ok('user' in ((await authn.authenticate(request('good'))) as object), 'the failure was not cached');
      assert.equal(reviews.length, 4);
    } finally {
      server.close();
    }
  });

  it('caches by the whole token and the audiences: a cached answer never answers another token or other audiences', async () => {
    const reviews: any[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const review = JSON.parse(body);
        reviews.push(review.spec);
        // Authenticates only the exact token 'good-token' for the audience 'api'.
        const ok = review.spec.token === 'good-token' && (review.spec.audiences ?? []).includes('api');
        res.end(JSON.stringify({ status: ok ? { authenticated: true, user: { username: 'ann' }, audiences: ['api'] } : { authenticated: false } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const authn = tokenWebhookAuthenticator({ endpoint: { file: 't', url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`), insecureSkipTLSVerify: false }, cacheTTLMs: 60_000, audiences: ['api'], now: () => 0 });
    try {
      assert.ok('user' in ((await authn.authenticate(request('good-token'))) as object));
      // Tokens sharing a prefix or a suffix, or differing in case, each ask the webhook.
      for (const token of ['good-toke', 'good-token2', 'Good-token', 'xgood-token']) {
        assert.ok('error' in ((await authn.authenticate(request(token))) as object), token);
      }
      // The same token for other audiences (a TokenReview's spec.audiences) asks again.
      assert.ok('error' in ((await authn.authenticate(withAudiences(request('good-token'), ['other']))) as object));
      assert.ok('user' in ((await authn.authenticate(withAudiences(request('good-token'), ['api']))) as object));
      assert.deepEqual(
        reviews.map((r) => `${r.token}|${(r.audiences ?? []).join(',')}`),
        ['good-token|api', 'good-toke|api', 'good-token2|api', 'Good-token|api', 'xgood-token|api', 'good-token|other'],
        'the server\'s audiences asked again came from the cache',
      );
    } finally {
      server.close();
    }
  });

  it('refuses an answer whose status does not decode as a TokenReviewStatus, as Go\'s decoder does', async () => {
    let answer = '';
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end(answer));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const authn = tokenWebhookAuthenticator({ endpoint: { file: 't', url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`), insecureSkipTLSVerify: false }, cacheTTLMs: 0 });
    const ok = (user: string) => `{"status":{"authenticated":true,"user":${user}}}`;
    try {
      let i = 0;
      for (const [body, message] of [
        [ok('{"username":5}'), 'json: cannot unmarshal number into Go struct field UserInfo.status.user.username of type string'],
        [ok('{"username":["root"]}'), 'json: cannot unmarshal array into Go struct field UserInfo.status.user.username of type string'],
        [ok('{"username":"ann","uid":7}'), 'json: cannot unmarshal number into Go struct field UserInfo.status.user.uid of type string'],
        [ok('{"username":"ann","groups":"system:masters"}'), 'json: cannot unmarshal string into Go struct field UserInfo.status.user.groups of type []string'],
        [ok('{"username":"ann","groups":["g",{}]}'), 'json: cannot unmarshal object into Go struct field UserInfo.status.user.groups of type string'],
        [ok('{"username":"ann","extra":"x"}'), 'json: cannot unmarshal string into Go struct field UserInfo.status.user.extra of type map[string]v1.ExtraValue'],
        [ok('{"username":"ann","extra":{"scopes":"a"}}'), 'json: cannot unmarshal string into Go struct field UserInfo.status.user.extra of type []string'],
        ['{"status":{"authenticated":"true","user":{"username":"ann"}}}', 'json: cannot unmarshal string into Go struct field TokenReviewStatus.status.authenticated of type bool'],
        ['{"status":{"authenticated":false,"error":{"code":1}}}', 'json: cannot unmarshal object into Go struct field TokenReviewStatus.status.error of type string'],
        ['{"status":"yes"}', 'json: cannot unmarshal string into Go struct field TokenReview.status of type v1.TokenReviewStatus'],
      ] as const) {
        answer = body;
        assert.deepEqual(await authn.authenticate(request(`t${i++}`)), { error: `token webhook: ${message}` }, body);
      }
      // Nulls are Go's zero values; extra keys are data ("__proto__" included).
      answer = ok('{"username":"ann","uid":null,"groups":null,"extra":{"__proto__":["p"],"none":null}}');
      assert.deepEqual(await authn.authenticate(request('nulls')), { user: { username: 'ann', groups: [], extra: JSON.parse('{"__proto__":["p"],"none":[]}') } });
    } finally {
      server.close();
    }
  });
});
