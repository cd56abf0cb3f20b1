/**
 * The protobuf message tables of the kinds the server installed with derived tables (see
 * protobuf-schema.ts), by apiVersion and kind: the request decoder and the response encoder
 * look kinds up here. Entries are built on first use and are the same for every server in the
 * process (a kind's table depends only on its compiled schema), so registering again replaces
 * an entry with an equal one.
 */
import type { MessageDesc } from './protobuf-desc.js';

const messages = new Map<string, () => MessageDesc | undefined>();

const keyOf = (apiVersion: string, kind: string) => `${apiVersion}/${kind}`;

/** Registers a kind's table, built by `build` on first use (undefined: not encodable). */
export function registerProtobufMessage(apiVersion: string, kind: string, build: () => MessageDesc | undefined): void {
  let built: { desc: MessageDesc | undefined } | undefined;
  messages.set(keyOf(apiVersion, kind), () => (built ??= { desc: build() }).desc);
}

/** The table of apiVersion/kind, if a server registered one and it could be built. */
export function registeredMessage(apiVersion: string, kind: string): MessageDesc | undefined {
  return messages.get(keyOf(apiVersion, kind))?.();
}
