/**
 * The etcd v3 messages the storage uses (etcd's api/etcdserverpb/rpc.proto and api/mvccpb/kv.proto),
 * with only the fields it reads or writes. int64 values are numbers (etcd revisions stay far below
 * 2^53); bytes are Buffers. Encoded by proto-encode.ts, decoded by proto-decode.ts.
 */
export interface RangeRequest {
  key: Buffer;
  range_end?: Buffer;
  limit?: number;
  revision?: number;
  serializable?: boolean;
  keys_only?: boolean;
  count_only?: boolean;
}

export interface PutRequest {
  key: Buffer;
  value: Buffer;
  prev_kv?: boolean;
}

export interface DeleteRangeRequest {
  key: Buffer;
  range_end?: Buffer;
  prev_kv?: boolean;
}

export interface RequestOp {
  request_range?: RangeRequest;
  request_put?: PutRequest;
  request_delete_range?: DeleteRangeRequest;
}

export type CompareTarget = 'Version' | 'Create' | 'Mod' | 'Value' | 'Lease';
export type CompareResult = 'Equal' | 'Greater' | 'Less' | 'NotEqual';

export interface Compare {
  key: Buffer;
  target: CompareTarget;
  result: CompareResult;
  version?: number;
  create_revision?: number;
  mod_revision?: number;
  value?: Buffer;
  lease?: number;
}

export interface TxnRequest {
  compare: Compare[];
  success: RequestOp[];
  failure: RequestOp[];
}

export interface CompactionRequest {
  revision: number;
  physical?: boolean;
}

export interface ResponseHeader {
  revision: number;
}

export interface KeyValue {
  key: Buffer;
  create_revision: number;
  mod_revision: number;
  version: number;
  value: Buffer;
  lease: number;
}

export interface RangeResponse {
  header: ResponseHeader;
  kvs: KeyValue[];
  more: boolean;
  count: number;
}

export interface PutResponse {
  header: ResponseHeader;
  prev_kv?: KeyValue;
}

export interface DeleteRangeResponse {
  header: ResponseHeader;
  deleted: number;
  prev_kvs: KeyValue[];
}

export interface ResponseOp {
  response_range?: RangeResponse;
  response_put?: PutResponse;
  response_delete_range?: DeleteRangeResponse;
}

export interface TxnResponse {
  header: ResponseHeader;
  succeeded: boolean;
  responses: ResponseOp[];
}

export interface CompactionResponse {
  header: ResponseHeader;
}

/** Protobuf wire types. */
export const VARINT = 0;
export const FIXED64 = 1;
export const LEN = 2;
export const FIXED32 = 5;
