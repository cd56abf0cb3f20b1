/**
 * The TokenReview webhook authenticator is audience-aware, as kube's (security review): it asks
 * the webhook about the audiences requested (a TokenReview's spec.audiences, else the server's),
 * and its cache is keyed by audiences and token, so a token the webhook accepted for the API
 * server is not answered from the cache as valid for another audience.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { withAudiences } from '../../runtime/authentication/authenticator.js';
import { tokenWebhookAuthenticator } from '../../runtime/authentication/webhook-token.js';
import type { IncomingAPIRequest } from '../../runtime/server/handler.js';

const request = (token: string) => ({ headers: { authorization: `Bearer ${token}` } }) as unknown as IncomingAPIRequest;

describe('token webhook audiences', () => {
  it('asks about the requested audiences and does not reuse an answer for other audiences', async () => {
    const asked: unknown[] = [];
    // The webhook's tokens: `api-token` is valid for the API server (`api`) only.
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const review = JSON.parse(body);
        asked.push(review.spec.audiences);
        const auds: string[] = review.spec.audiences ?? [];
        const ok = review.spec.token === 'api-token' && auds.includes('api');
        res.end(JSON.stringify({ status: ok ? { authenticated: true, user: { username: 'ann', groups: [] }, audiences: ['api'] } : { authenticated: false } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const authn = tokenWebhookAuthenticator({
      endpoint: { file: 't', url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`), insecureSkipTLSVerify: false },
      cacheTTLMs: 60_000,
      audiences: ['api'],
    });
    try {
      const forServer = await authn.authenticate(request('api-token'));
      assert.deepEqual(forServer, { user: { username: 'ann', groups: [] }, audiences: ['api'] });
      // Now asked (by a TokenReview) whether it is valid for vault: the cached answer for `api` must not do.
      const forVault = await authn.authenticate(withAudiences(request('api-token'), ['vault']));
      assert.ok(forVault && 'error' in forVault, `accepted for vault: ${JSON.stringify(forVault)}`);
      assert.deepEqual(asked, [['api'], ['vault']]);
      // A webhook answering for an audience it was not asked about does not make the token valid for it.
      const mixed = await authn.authenticate(withAudiences(request('api-token'), ['vault', 'api']));
      assert.deepEqual(mixed, { user: { username: 'ann', groups: [] }, audiences: ['api'] });
    } finally {
      server.close();
    }
  });
});
