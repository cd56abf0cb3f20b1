/**
 * What Go's http.Client does with a redirect, as kube's webhook clients meet it: every webhook
 * (admission, CRD conversion, authentication token review, authorization subject access review)
 * is called through client-go's rest client (rest.UnversionedRESTClientFor → HTTPClientFor),
 * whose http.Client sets no CheckRedirect, so net/http's defaults apply (client.go,
 * Client.do, redirectBehavior, defaultCheckRedirect):
 *   - 301, 302 and 303 are followed; a method other than GET or HEAD becomes GET, without body;
 *   - 307 and 308 are followed with the same method and body (client-go's body is re-readable);
 *   - a 3xx without a Location header is not followed: the caller sees that status;
 *   - the Location is resolved against the URL that answered it;
 *   - the 11th redirect fails the call with `stopped after 10 redirects`;
 *   - every hop goes through the same transport: the same CA, client certificate, bearer token
 *     (client-go's round tripper adds it to each request) and TLS server name, under the one
 *     deadline of the call.
 * One deliberate difference: a redirect from https to plain http is refused (Go follows it), as is
 * a scheme other than http(s) (Go: `unsupported protocol scheme`).
 */

/** Go's defaultCheckRedirect limit. */
export const MAX_REDIRECTS = 10;

export interface RedirectHop {
  url: URL;
  method: string;
  /** Whether the request body is sent again (307/308). */
  withBody: boolean;
}

/**
 * The next request after an answer `status` with `location` to `method url`, after `followed`
 * redirects already; undefined when the answer is not one to follow. Throws Go's error when the
 * limit is reached (the caller names the method and URL around it, as url.Error does).
 */
export function redirectTarget(status: number, location: string | undefined, method: string, url: URL, followed: number): RedirectHop | undefined {
  let withBody: boolean;
  let next = method;
  switch (status) {
    case 301:
    case 302:
    case 303:
      withBody = false;
      if (method !== 'GET' && method !== 'HEAD') next = 'GET';
      break;
    case 307:
    case 308:
      withBody = true;
      break;
    default:
      return undefined;
  }
  if (!location) return undefined;
  if (followed >= MAX_REDIRECTS) throw new Error(`stopped after ${MAX_REDIRECTS} redirects`);
  let target: URL;
  try {
    target = new URL(location, url);
  } catch {
    throw new Error(`failed to parse Location header ${JSON.stringify(location)}`);
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error(`unsupported protocol scheme ${JSON.stringify(target.protocol.replace(/:$/, ''))}`);
  // A deliberate difference from Go's client, which follows https → http: the review (Secrets
  // included) and a kubeconfig's bearer token would cross the network in clear text.
  if (url.protocol === 'https:' && target.protocol !== 'https:') throw new Error(`redirect from https to ${target.protocol.replace(/:$/, '')} refused: ${target.href}`);
  return { url: target, method: next, withBody };
}
