/**
 * Watch (kube's handlers/watch.go): newline-delimited `{"type","object"}` JSON, one chunk per
 * event, ended by timeoutSeconds (default 30 minutes, kube's min-request-timeout) or the client.
 * With a Table Accept each event carries a one-row Table; only the first has columnDefinitions.
 */
import { parseFieldSelector } from '../registry/fieldselector.js';
import type { APIRequest, RequestScope, StreamResponse } from './handler.js';
import { JSON_CONTENT_TYPE, negotiateOutput } from './negotiation.js';
import type { ListQuery } from './queryparams.js';
import { namespaceFor } from './requestscope.js';
import { parseIncludeObject } from './tableconvertor.js';
import { transformObject } from './transform.js';

export const DEFAULT_WATCH_TIMEOUT_SECONDS = 1800;

export async function watchResource(scope: RequestScope, req: APIRequest, query: ListQuery): Promise<StreamResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: true, list: true, watch: true });
  const includeObject = parseIncludeObject(req.query.get('includeObject'));
  // The legacy /watch/…/{name} path names the object in the URL instead of a field selector.
  const fieldSelector = req.info.name
    ? parseFieldSelector(`metadata.name=${req.info.name}`)
    : query.fieldSelector;
  const watch = scope.store.watch(namespaceFor(scope, req.info), {
    labelSelector: query.labelSelector,
    fieldSelector,
    resourceVersion: query.resourceVersion,
  });
  const timeoutSeconds = query.timeoutSeconds || DEFAULT_WATCH_TIMEOUT_SECONDS;

  async function* chunks(): AsyncGenerator<string> {
    const timer = setTimeout(() => watch.stop(), timeoutSeconds * 1000);
    let headersSent = false;
    try {
      for await (const event of watch) {
        const object =
          event.type === 'ERROR' ? event.object : transformObject(scope.definition, event.object, target, { includeObject, noHeaders: headersSent });
        if (target.as === 'Table' && event.type !== 'ERROR') headersSent = true;
        yield `${JSON.stringify({ type: event.type, object })}\n`;
      }
    } finally {
      clearTimeout(timer);
      watch.stop();
    }
  }

  return { kind: 'stream', code: 200, contentType: JSON_CONTENT_TYPE, headers: {}, chunks: chunks(), close: () => watch.stop() };
}
