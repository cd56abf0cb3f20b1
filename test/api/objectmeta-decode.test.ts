/**
 * objectMetaDecodeError looks metadata's keys up in its table of ObjectMeta fields. The keys are
 * the client's: "__proto__", "constructor" or "toString" must be unknown fields (ignored, as Go
 * ignores them), never members of Object.prototype taken for a field type — not even when
 * something has added to Object.prototype.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectMetaDecodeError } from '../../runtime/api/objectmeta-decode.js';

describe('objectMetaDecodeError with keys named like Object.prototype members', () => {
  it('treats them as unknown fields', () => {
    for (const body of ['{"__proto__":5}', '{"constructor":5}', '{"toString":[1]}', '{"hasOwnProperty":{}}', '{"valueOf":true}']) {
      assert.equal(objectMetaDecodeError(JSON.parse(body), 'metadata.'), undefined, body);
      assert.equal(objectMetaDecodeError(JSON.parse(body), '', true), undefined, body);
    }
  });

  it('reads only its own table: a key added to Object.prototype is no ObjectMeta field', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.kgenPolluted = 'string';
    try {
      assert.equal(objectMetaDecodeError({ kgenPolluted: 5 }, 'metadata.'), undefined);
    } finally {
      delete proto.kgenPolluted;
    }
  });

  it('still reports its real fields', () => {
    assert.equal(objectMetaDecodeError({ name: 5 }, 'metadata.'), 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string');
    assert.equal(objectMetaDecodeError({ creationTimestamp: 5 }, ''), 'json: cannot unmarshal number into Go struct field ObjectMeta.creationTimestamp of type string');
  });
});
