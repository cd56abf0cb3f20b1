/**
 * Protocol buffers' wire format, written: varints, tags and length-delimited fields appended in
 * order, joined once by finish(). Shared by the Kubernetes protobuf encoder (protobuf-encode.ts)
 * and the OpenAPI v2 document encoder (runtime/server/openapi-v2-proto.ts). Methods return the
 * writer, so message builders can chain them.
 */
export class ProtobufWriter {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  raw(bytes: Uint8Array): this {
    this.parts.push(bytes);
    this.size += bytes.length;
    return this;
  }

  /** An unsigned varint of the value's 64-bit two's complement (negative int64s take 10 bytes). */
  varint(n: bigint | number): this {
    let v = BigInt.asUintN(64, BigInt(n));
    const out: number[] = [];
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    out.push(Number(v));
    return this.raw(Uint8Array.from(out));
  }

  tag(field: number, wire: number): this {
    return this.varint((field << 3) | wire);
  }

  /** A length-delimited field (wire type 2). */
  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.varint(value.length);
    return this.raw(value);
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}
