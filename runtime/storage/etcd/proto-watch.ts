/**
 * The Watch service's messages (etcd's rpc.proto: WatchRequest, WatchResponse; kv.proto: Event),
 * encoded and decoded by hand as the KV messages are (proto-encode.ts, proto-decode.ts). Only
 * what the storage's watch uses: a create request (no filters, no fragmenting, no progress
 * requests) and the response fields it reads. Keys and values are views into the received buffer.
 */
import { readHeader, readKeyValue, Reader } from './proto-decode.js';
import { boolField, bytesField, frame, intField, messageField } from './proto-encode.js';
import { LEN, VARINT, type KeyValue, type ResponseHeader } from './proto.js';

/** WatchCreateRequest: key 1, range_end 2, start_revision 3, prev_kv 6. */
export interface WatchCreateRequest {
  key: Buffer;
  /** Undefined: exactly `key`. */
  range_end?: Buffer;
  start_revision?: number;
  prev_kv?: boolean;
}

export interface WatchEvent {
  /** Event.EventType: PUT 0, DELETE 1. */
  type: 'Put' | 'Delete';
  kv: KeyValue;
  prev_kv?: KeyValue;
}

export interface WatchResponse {
  header: ResponseHeader;
  created: boolean;
  canceled: boolean;
  /** Non-zero when the watch was canceled because its start revision is compacted. */
  compact_revision: number;
  cancel_reason: string;
  events: WatchEvent[];
}

const createSize = (c: WatchCreateRequest): number => bytesField(c.key) + bytesField(c.range_end) + intField(c.start_revision) + boolField(c.prev_kv);

/** One gRPC frame holding WatchRequest{create_request (field 1)}. */
export function frameWatchCreate(c: WatchCreateRequest): Buffer {
  const inner = createSize(c);
  return frame(c, messageField(inner), (w, m) => {
    w.message(1, inner);
    w.bytes(1, m.key);
    w.bytes(2, m.range_end);
    w.int(3, m.start_revision);
    w.bool(6, m.prev_kv);
  });
}

const NO_EVENTS: WatchEvent[] = [];
const NO_HEADER: ResponseHeader = { revision: 0 };

function readEvent(r: Reader): WatchEvent {
  let type: WatchEvent['type'] = 'Put';
  let kv: KeyValue | undefined;
  let prev: KeyValue | undefined;
  while (r.more) {
    const tag = r.varint();
    if (tag === ((1 << 3) | VARINT)) type = r.varint() === 1 ? 'Delete' : 'Put';
    else if (tag === ((2 << 3) | LEN)) kv = r.message(readKeyValue);
    else if (tag === ((3 << 3) | LEN)) prev = r.message(readKeyValue);
    else r.skip(tag & 7);
  }
  if (!kv) throw new Error('protobuf: watch event without kv');
  return prev ? { type, kv, prev_kv: prev } : { type, kv };
}

function readWatchResponse(r: Reader): WatchResponse {
  const res: WatchResponse = { header: NO_HEADER, created: false, canceled: false, compact_revision: 0, cancel_reason: '', events: NO_EVENTS };
  while (r.more) {
    const tag = r.varint();
    switch (tag) {
      case (1 << 3) | LEN:
        res.header = r.message(readHeader);
        break;
      case (3 << 3) | VARINT:
        res.created = r.varint() !== 0;
        break;
      case (4 << 3) | VARINT:
        res.canceled = r.varint() !== 0;
        break;
      case (5 << 3) | VARINT:
        res.compact_revision = r.varint();
        break;
      case (6 << 3) | LEN:
        res.cancel_reason = r.bytes().toString('utf8');
        break;
      case (11 << 3) | LEN:
        if (res.events === NO_EVENTS) res.events = [];
        res.events.push(r.message(readEvent));
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return res;
}

/** Decodes one WatchResponse message (the bytes after the gRPC frame prefix). */
export const decodeWatchResponse = (message: Buffer): WatchResponse => readWatchResponse(new Reader(message, 0, message.length));
