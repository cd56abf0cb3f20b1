/**
 * Issue 20: a default `kgen serve` must not load the JWT/OIDC and TokenReview-webhook
 * authenticators, the --authorization-mode authorizers or delegated auth. They are built through
 * import() in runtime/controlplane/optional-auth.ts (and server.ts, for delegated auth) only when
 * configured; the static import closure of the serve command and startServer leaves them out.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { optionalAuthenticators } from '../../runtime/controlplane/optional-auth.js';
import { readImportGraph } from '../../tools/imports/graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Files loaded when `entry` loads: static, non-type imports only. */
function staticClosure(entry: string): Set<string> {
  const graph = readImportGraph(ROOT, ['cli', 'runtime', 'packages/client/src']);
  const seen = new Set([entry]);
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    for (const e of graph.edges) {
      if (e.from === file && !e.typeOnly && !e.dynamic && !seen.has(e.to)) {
        seen.add(e.to);
        todo.push(e.to);
      }
    }
  }
  return seen;
}

const OPTIONAL = [
  'runtime/authentication/oidc.ts',
  'runtime/authentication/oidc-keys.ts',
  'runtime/authentication/jwt-config.ts',
  'runtime/authentication/webhook-token.ts',
  'runtime/authorization/modes.ts',
  'runtime/authorization/webhook.ts',
  'runtime/controlplane/delegated-auth.ts',
];

describe('optional authenticators and authorizers', () => {
  it('are not in the static import closure of startServer', () => {
    const closure = staticClosure('runtime/controlplane/server.ts');
    assert.ok(closure.has('runtime/authentication/index.ts'), 'the closure is read');
    assert.deepEqual(OPTIONAL.filter((f) => closure.has(f)), []);
  });

  it('are built only when configured', async () => {
    assert.deepEqual(await optionalAuthenticators({}), {});
    const built = await optionalAuthenticators({
      tokenWebhook: { endpoint: { url: new URL('https://127.0.0.1:1/'), request: {} } as never, cacheTTLMs: 0 },
    });
    assert.deepEqual(Object.keys(built), ['tokenWebhookAuthenticator']);
    assert.equal(typeof built.tokenWebhookAuthenticator!.authenticate, 'function');
  });
});
