/**
 * A hand-written protobuf encoder for the etcd requests in proto.ts (field numbers as in etcd's
 * rpc.proto). Requests are encoded in two passes (sizes, then bytes) straight into one gRPC frame:
 * the 5-byte prefix (flag 0, big-endian length) followed by the message, with no intermediate
 * buffers. proto3 rules: scalar fields at their default are not written, except a oneof member (a
 * Compare's target value), which is written even when 0.
 */
import {
  LEN,
  VARINT,
  type CompactionRequest,
  type Compare,
  type CompareResult,
  type CompareTarget,
  type DeleteRangeRequest,
  type PutRequest,
  type RangeRequest,
  type RequestOp,
  type TxnRequest,
} from './proto.js';

const TARGETS: Record<CompareTarget, number> = { Version: 0, Create: 1, Mod: 2, Value: 3, Lease: 4 };
const RESULTS: Record<CompareResult, number> = { Equal: 0, Greater: 1, Less: 2, NotEqual: 3 };

// Sizes

/** Bytes of an int64/uint64/enum varint (negative int64s take 10). */
function varintSize(n: number): number {
  if (n < 0) return 10;
  if (n < 0x80) return 1;
  if (n < 0x4000) return 2;
  if (n < 0x200000) return 3;
  if (n < 0x10000000) return 4;
  let size = 4;
  n = Math.floor(n / 0x10000000);
  while (n > 0) {
    size++;
    n = Math.floor(n / 128);
  }
  return size;
}

/** A varint field that is written only when set (tags here are all < 16: one byte). */
export const intField = (n: number | undefined): number => (n ? 1 + varintSize(n) : 0);
export const boolField = (b: boolean | undefined): number => (b ? 2 : 0);
export const bytesField = (b: Buffer | undefined): number => (b && b.length > 0 ? 1 + varintSize(b.length) + b.length : 0);
export const messageField = (size: number): number => 1 + varintSize(size) + size;

function rangeSize(r: RangeRequest): number {
  return (
    bytesField(r.key) +
    bytesField(r.range_end) +
    intField(r.limit) +
    intField(r.revision) +
    boolField(r.serializable) +
    boolField(r.keys_only) +
    boolField(r.count_only)
  );
}

const putSize = (p: PutRequest): number => bytesField(p.key) + bytesField(p.value) + boolField(p.prev_kv);
const deleteSize = (d: DeleteRangeRequest): number => bytesField(d.key) + bytesField(d.range_end) + boolField(d.prev_kv);

function opSize(op: RequestOp): number {
  if (op.request_range) return messageField(rangeSize(op.request_range));
  if (op.request_put) return messageField(putSize(op.request_put));
  if (op.request_delete_range) return messageField(deleteSize(op.request_delete_range));
  return 0;
}

function compareSize(c: Compare): number {
  let size = intField(RESULTS[c.result]) + intField(TARGETS[c.target]) + bytesField(c.key);
  switch (c.target) {
    case 'Version':
      return size + 1 + varintSize(c.version ?? 0);
    case 'Create':
      return size + 1 + varintSize(c.create_revision ?? 0);
    case 'Mod':
      return size + 1 + varintSize(c.mod_revision ?? 0);
    case 'Lease':
      return size + 1 + varintSize(c.lease ?? 0);
    case 'Value':
      size += 1 + varintSize(c.value?.length ?? 0) + (c.value?.length ?? 0);
      return size;
  }
}

function txnSize(t: TxnRequest): number {
  let size = 0;
  for (const c of t.compare) size += messageField(compareSize(c));
  for (const op of t.success) size += messageField(opSize(op));
  for (const op of t.failure) size += messageField(opSize(op));
  return size;
}

// Writing

export class Writer {
  pos: number;
  constructor(
    readonly buf: Buffer,
    start: number,
  ) {
    this.pos = start;
  }

  varint(n: number): void {
    const buf = this.buf;
    if (n < 0) {
      let v = BigInt.asUintN(64, BigInt(n));
      for (let i = 0; i < 9; i++) {
        buf[this.pos++] = Number(v & 0x7fn) | 0x80;
        v >>= 7n;
      }
      buf[this.pos++] = Number(v);
      return;
    }
    while (n >= 0x80) {
      buf[this.pos++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    buf[this.pos++] = n;
  }

  tag(field: number, wire: number): void {
    this.buf[this.pos++] = (field << 3) | wire;
  }

  int(field: number, n: number | undefined): void {
    if (!n) return;
    this.tag(field, VARINT);
    this.varint(n);
  }

  /** A oneof member: written even when 0. */
  oneofInt(field: number, n: number): void {
    this.tag(field, VARINT);
    this.varint(n);
  }

  bool(field: number, b: boolean | undefined): void {
    if (!b) return;
    this.tag(field, VARINT);
    this.buf[this.pos++] = 1;
  }

  bytes(field: number, b: Buffer | undefined, always = false): void {
    if (!b || (b.length === 0 && !always)) return;
    this.tag(field, LEN);
    this.varint(b.length);
    b.copy(this.buf, this.pos);
    this.pos += b.length;
  }

  message(field: number, size: number): void {
    this.tag(field, LEN);
    this.varint(size);
  }
}

function writeRange(w: Writer, r: RangeRequest): void {
  w.bytes(1, r.key);
  w.bytes(2, r.range_end);
  w.int(3, r.limit);
  w.int(4, r.revision);
  w.bool(7, r.serializable);
  w.bool(8, r.keys_only);
  w.bool(9, r.count_only);
}

function writePut(w: Writer, p: PutRequest): void {
  w.bytes(1, p.key);
  w.bytes(2, p.value);
  w.bool(4, p.prev_kv);
}

function writeDelete(w: Writer, d: DeleteRangeRequest): void {
  w.bytes(1, d.key);
  w.bytes(2, d.range_end);
  w.bool(3, d.prev_kv);
}

function writeOp(w: Writer, op: RequestOp): void {
  if (op.request_range) {
    w.message(1, rangeSize(op.request_range));
    writeRange(w, op.request_range);
  } else if (op.request_put) {
    w.message(2, putSize(op.request_put));
    writePut(w, op.request_put);
  } else if (op.request_delete_range) {
    w.message(3, deleteSize(op.request_delete_range));
    writeDelete(w, op.request_delete_range);
  }
}

function writeCompare(w: Writer, c: Compare): void {
  w.int(1, RESULTS[c.result]);
  w.int(2, TARGETS[c.target]);
  w.bytes(3, c.key);
  switch (c.target) {
    case 'Version':
      return w.oneofInt(4, c.version ?? 0);
    case 'Create':
      return w.oneofInt(5, c.create_revision ?? 0);
    case 'Mod':
      return w.oneofInt(6, c.mod_revision ?? 0);
    case 'Value':
      return w.bytes(7, c.value ?? Buffer.alloc(0), true);
    case 'Lease':
      return w.oneofInt(8, c.lease ?? 0);
  }
}

function writeTxn(w: Writer, t: TxnRequest): void {
  for (const c of t.compare) {
    w.message(1, compareSize(c));
    writeCompare(w, c);
  }
  for (const op of t.success) {
    w.message(2, opSize(op));
    writeOp(w, op);
  }
  for (const op of t.failure) {
    w.message(3, opSize(op));
    writeOp(w, op);
  }
}

/** One gRPC message frame (uncompressed) holding a message of `size` bytes written by `write`. */
export function frame<T>(message: T, size: number, write: (w: Writer, m: T) => void): Buffer {
  const buf = Buffer.allocUnsafe(5 + size);
  buf[0] = 0;
  buf.writeUInt32BE(size, 1);
  const w = new Writer(buf, 5);
  write(w, message);
  if (w.pos !== buf.length) throw new Error(`protobuf size mismatch: wrote ${w.pos - 5} of ${size} bytes`);
  return buf;
}

export const frameRange = (r: RangeRequest): Buffer => frame(r, rangeSize(r), writeRange);
export const frameTxn = (t: TxnRequest): Buffer => frame(t, txnSize(t), writeTxn);
export const frameCompaction = (c: CompactionRequest): Buffer =>
  frame(c, intField(c.revision) + boolField(c.physical), (w, m) => {
    w.int(1, m.revision);
    w.bool(2, m.physical);
  });
