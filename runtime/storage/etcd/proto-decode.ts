/**
 * A hand-written protobuf decoder for the etcd responses in proto.ts (field numbers as in etcd's
 * rpc.proto and kv.proto). Only the fields the storage reads are decoded; unknown fields are
 * skipped. Keys and values are views into the received buffer (no copies).
 */
import {
  FIXED32,
  FIXED64,
  LEN,
  VARINT,
  type CompactionResponse,
  type DeleteRangeResponse,
  type KeyValue,
  type PutResponse,
  type RangeResponse,
  type ResponseHeader,
  type ResponseOp,
  type TxnResponse,
} from './proto.js';

export class Reader {
  constructor(
    readonly buf: Buffer,
    public pos: number,
    readonly end: number,
  ) {}

  get more(): boolean {
    return this.pos < this.end;
  }

  varint(): number {
    // A nested message's reader shares the buffer: reading past its end would take the parent's
    // next byte as this value.
    if (this.pos >= this.end) throw new Error('protobuf: truncated varint');
    const buf = this.buf;
    let b = buf[this.pos++];
    if (b < 0x80) return b;
    let result = b & 0x7f;
    let shift = 128;
    for (let i = 1; i < 10; i++) {
      if (this.pos >= this.end) throw new Error('protobuf: truncated varint');
      b = buf[this.pos++];
      result += (b & 0x7f) * shift;
      if (b < 0x80) return result;
      shift *= 128;
    }
    throw new Error('protobuf: varint too long');
  }

  /** Reads a length prefix and returns the end of the field's bytes. */
  lengthEnd(): number {
    const len = this.varint();
    const end = this.pos + len;
    if (end > this.end) throw new Error('protobuf: truncated field');
    return end;
  }

  bytes(): Buffer {
    const end = this.lengthEnd();
    const b = this.buf.subarray(this.pos, end);
    this.pos = end;
    return b;
  }

  skip(wire: number): void {
    switch (wire) {
      case VARINT:
        this.varint();
        return;
      case FIXED64:
        this.fixed(8);
        return;
      case LEN:
        this.pos = this.lengthEnd();
        return;
      case FIXED32:
        this.fixed(4);
        return;
      default:
        throw new Error(`protobuf: unsupported wire type ${wire}`);
    }
  }

  private fixed(size: number): void {
    if (this.pos + size > this.end) throw new Error('protobuf: truncated field');
    this.pos += size;
  }

  /** A nested message: decodes it with `read` over its own bounds. */
  message<T>(read: (r: Reader) => T): T {
    const end = this.lengthEnd();
    const value = read(new Reader(this.buf, this.pos, end));
    this.pos = end;
    return value;
  }
}

const EMPTY = Buffer.alloc(0);

export function readHeader(r: Reader): ResponseHeader {
  let revision = 0;
  while (r.more) {
    const tag = r.varint();
    if (tag === ((3 << 3) | VARINT)) revision = r.varint();
    else r.skip(tag & 7);
  }
  return { revision };
}

export function readKeyValue(r: Reader): KeyValue {
  const kv: KeyValue = { key: EMPTY, create_revision: 0, mod_revision: 0, version: 0, value: EMPTY, lease: 0 };
  while (r.more) {
    const tag = r.varint();
    switch (tag) {
      case (1 << 3) | LEN:
        kv.key = r.bytes();
        break;
      case (2 << 3) | VARINT:
        kv.create_revision = r.varint();
        break;
      case (3 << 3) | VARINT:
        kv.mod_revision = r.varint();
        break;
      case (4 << 3) | VARINT:
        kv.version = r.varint();
        break;
      case (5 << 3) | LEN:
        kv.value = r.bytes();
        break;
      case (6 << 3) | VARINT:
        kv.lease = r.varint();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return kv;
}

const NO_HEADER: ResponseHeader = { revision: 0 };

function readRangeResponse(r: Reader): RangeResponse {
  const res: RangeResponse = { header: NO_HEADER, kvs: [], more: false, count: 0 };
  while (r.more) {
    const tag = r.varint();
    switch (tag) {
      case (1 << 3) | LEN:
        res.header = r.message(readHeader);
        break;
      case (2 << 3) | LEN:
        res.kvs.push(r.message(readKeyValue));
        break;
      case (3 << 3) | VARINT:
        res.more = r.varint() !== 0;
        break;
      case (4 << 3) | VARINT:
        res.count = r.varint();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return res;
}

function readPutResponse(r: Reader): PutResponse {
  const res: PutResponse = { header: NO_HEADER };
  while (r.more) {
    const tag = r.varint();
    if (tag === ((1 << 3) | LEN)) res.header = r.message(readHeader);
    else if (tag === ((2 << 3) | LEN)) res.prev_kv = r.message(readKeyValue);
    else r.skip(tag & 7);
  }
  return res;
}

function readDeleteRangeResponse(r: Reader): DeleteRangeResponse {
  const res: DeleteRangeResponse = { header: NO_HEADER, deleted: 0, prev_kvs: [] };
  while (r.more) {
    const tag = r.varint();
    if (tag === ((1 << 3) | LEN)) res.header = r.message(readHeader);
    else if (tag === ((2 << 3) | VARINT)) res.deleted = r.varint();
    else if (tag === ((3 << 3) | LEN)) res.prev_kvs.push(r.message(readKeyValue));
    else r.skip(tag & 7);
  }
  return res;
}

function readResponseOp(r: Reader): ResponseOp {
  const op: ResponseOp = {};
  while (r.more) {
    const tag = r.varint();
    if (tag === ((1 << 3) | LEN)) op.response_range = r.message(readRangeResponse);
    else if (tag === ((2 << 3) | LEN)) op.response_put = r.message(readPutResponse);
    else if (tag === ((3 << 3) | LEN)) op.response_delete_range = r.message(readDeleteRangeResponse);
    else r.skip(tag & 7);
  }
  return op;
}

function readTxnResponse(r: Reader): TxnResponse {
  const res: TxnResponse = { header: NO_HEADER, succeeded: false, responses: [] };
  while (r.more) {
    const tag = r.varint();
    if (tag === ((1 << 3) | LEN)) res.header = r.message(readHeader);
    else if (tag === ((2 << 3) | VARINT)) res.succeeded = r.varint() !== 0;
    else if (tag === ((3 << 3) | LEN)) res.responses.push(r.message(readResponseOp));
    else r.skip(tag & 7);
  }
  return res;
}

function readCompactionResponse(r: Reader): CompactionResponse {
  const res: CompactionResponse = { header: NO_HEADER };
  while (r.more) {
    const tag = r.varint();
    if (tag === ((1 << 3) | LEN)) res.header = r.message(readHeader);
    else r.skip(tag & 7);
  }
  return res;
}

/** A decoder of one response message (the bytes after the gRPC frame prefix). */
export type Decoder<T> = (message: Buffer) => T;

const decoder =
  <T>(read: (r: Reader) => T): Decoder<T> =>
  (message) =>
    read(new Reader(message, 0, message.length));

export const decodeRangeResponse = decoder(readRangeResponse);
export const decodeTxnResponse = decoder(readTxnResponse);
export const decodeCompactionResponse = decoder(readCompactionResponse);
