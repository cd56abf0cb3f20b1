/**
 * The browser build's stand-in for the `ws` package: CONNECT subresources (a WebSocket speaking
 * v5.channel.k8s.io with client certificates or bearer headers) need Node; in a browser,
 * `connect()` says so. Streaming `get` subresources (logs) work through fetch.
 */
export default class WebSocketUnavailable {
  constructor() {
    throw new Error('@kgen/client: CONNECT subresources need Node (the ws package); in a browser only get subresources are available');
  }
}
