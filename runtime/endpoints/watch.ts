/**
 * Watch (kube's handlers/watch.go): newline-delimited `{"type","object"}` JSON, one chunk per
 * event, ended by timeoutSeconds (default 30 minutes, kube's min-request-timeout) or the client.
 * With a Table Accept each event carries a one-row Table; only the first has columnDefinitions
 * (a BOOKMARK becomes a Table without rows that carries its resourceVersion).
 * The store ends the watch at the timeout (with a final BOOKMARK when allowWatchBookmarks).
 */
import type { KubeObject, WatchEvent } from '../api/meta.js';
import { parseFieldSelector } from '../registry/fieldselector.js';
import type { APIRequest, RequestScope, StreamResponse } from './handler.js';
import { parseSendInitialEvents } from './listoptions.js';
import { JSON_CONTENT_TYPE, negotiateOutput, type OutputTarget } from './negotiation.js';
import type { ListQuery } from './queryparams.js';
import { namespaceFor } from './requestscope.js';
import { parseIncludeObject, type IncludeObject } from './tableconvertor.js';
import { transformObject } from './transform.js';
import { encodedObject } from '../storage/cacher/cached-object.js';

export const DEFAULT_WATCH_TIMEOUT_SECONDS = 1800;

export async function watchResource(scope: RequestScope, req: APIRequest, query: ListQuery): Promise<StreamResponse> {
  const target = negotiateOutput(req.headers.accept, { transform: true, list: true, watch: true });
  const includeObject = parseIncludeObject(req.query.get('includeObject'));
  // The legacy /watch/…/{name} path names the object in the URL instead of a field selector.
  const pathName = req.info.parts[1];
  const fieldSelector = pathName ? parseFieldSelector(`metadata.name=${pathName}`) : query.fieldSelector;
  const watch = scope.store.watch(namespaceFor(scope, req.info), {
    labelSelector: query.labelSelector,
    fieldSelector,
    resourceVersion: query.resourceVersion,
    allowWatchBookmarks: query.allowWatchBookmarks,
    sendInitialEvents: parseSendInitialEvents(req.query),
    timeoutSeconds: query.timeoutSeconds || DEFAULT_WATCH_TIMEOUT_SECONDS,
  });

  async function* chunks(): AsyncGenerator<string> {
    let headersSent = false;
    try {
      for await (const event of watch) {
        const object = encodeObject(scope, event, target, { includeObject, noHeaders: headersSent });
        if (target.as === 'Table' && event.type !== 'ERROR') headersSent = true;
        yield (target.format === 'json' && encodedEventLine(event.type, object)) || `${JSON.stringify({ type: event.type, object })}\n`;
      }
    } finally {
      watch.stop();
    }
  }

  return { kind: 'stream', code: 200, contentType: JSON_CONTENT_TYPE, headers: {}, chunks: chunks(), close: () => watch.stop() };
}

/** The event's object as the client asked for it; ERROR Status objects go out as they are. */
function encodeObject(
  scope: RequestScope,
  event: WatchEvent,
  target: OutputTarget,
  opts: { includeObject: IncludeObject; noHeaders: boolean },
): unknown {
  if (event.type === 'ERROR') return event.object;
  const object = transformObject(scope.definition, event.object as KubeObject, target, opts);
  if (event.type === 'BOOKMARK' && target.as === 'Table') return { ...(object as object), rows: [] };
  return object;
}

/**
 * The line of a watch event whose object IS a watch-cache object, built once and shared by every
 * watcher that sends it (kube serializes a cacher event once for all of its watchers); undefined
 * for any other object. Only the most recent lines are kept: a fan-out sends one event to every
 * watcher at about the same time, and lines kept longer would double what the cache holds.
 */
const RECENT_LINES = 16;
const recentLines: Array<{ object: object; type: string; line: string } | undefined> = new Array(RECENT_LINES);
let nextLine = 0;

function encodedEventLine(type: string, object: unknown): string | undefined {
  for (const known of recentLines) if (known !== undefined && known.object === object && known.type === type) return known.line;
  const bytes = encodedObject(object);
  if (!bytes) return undefined;
  const line = `{"type":${JSON.stringify(type)},"object":${bytes.toString('utf8')}}\n`;
  recentLines[nextLine] = { object: object as object, type, line };
  nextLine = (nextLine + 1) % RECENT_LINES;
  return line;
}
