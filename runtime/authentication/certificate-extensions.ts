/**
 * What Go's x509 parser reads from a certificate and node's X509Certificate does not expose,
 * read from the DER: the version, basic constraints (cA, pathLenConstraint), whether name
 * constraints or subject alternative names are present, and the critical extensions Go does not
 * handle (its Verify refuses a leaf with one). A certificate that does not parse as these
 * structures gives undefined (the caller refuses it).
 */

export interface CertificateExtensions {
  /** 1 for v1 certificates (no version field), 3 for v3. */
  version: number;
  /** Whether a basicConstraints extension is present (Go's BasicConstraintsValid). */
  basicConstraints: boolean;
  ca: boolean;
  /** pathLenConstraint; undefined when absent (no limit). */
  maxPathLen?: number;
  nameConstraints: boolean;
  subjectAltName: boolean;
  /** Critical extensions outside Go's handled set (crypto/x509 parser.go processExtensions). */
  unhandledCritical: string[];
}

/**
 * Extensions Go's parser handles, whose criticality it accepts: subjectKeyIdentifier, keyUsage,
 * subjectAltName, basicConstraints, nameConstraints, cRLDistributionPoints, certificatePolicies,
 * authorityKeyIdentifier, extKeyUsage, authorityInfoAccess. The policy extensions Go learned in
 * 1.22 (policyMappings, policyConstraints, inhibitAnyPolicy) are not enforced here, so a critical
 * one is refused (fail closed).
 */
const HANDLED = new Set(['2.5.29.14', '2.5.29.15', '2.5.29.17', '2.5.29.19', '2.5.29.30', '2.5.29.31', '2.5.29.32', '2.5.29.35', '2.5.29.37', '1.3.6.1.5.5.7.1.1']);

interface Element {
  tag: number;
  start: number;
  end: number;
}

/** The DER element at offset (definite lengths only), or undefined when it overruns limit. */
function element(der: Uint8Array, offset: number, limit: number): Element | undefined {
  if (offset + 2 > limit) return undefined;
  const tag = der[offset];
  if ((tag & 0x1f) === 0x1f) return undefined;
  let length = der[offset + 1];
  let start = offset + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4 || start + bytes > limit) return undefined;
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i];
    start += bytes;
  }
  const end = start + length;
  return end > limit ? undefined : { tag, start, end };
}

function children(der: Uint8Array, parent: Element): Element[] | undefined {
  const out: Element[] = [];
  for (let at = parent.start; at < parent.end; ) {
    const e = element(der, at, parent.end);
    if (!e) return undefined;
    out.push(e);
    at = e.end;
  }
  return out;
}

function oid(der: Uint8Array, e: Element): string {
  const parts: number[] = [];
  let value = 0;
  for (let i = e.start; i < e.end; i++) {
    value = value * 128 + (der[i] & 0x7f);
    if (!(der[i] & 0x80)) {
      if (parts.length === 0) parts.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
      else parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

const SEQUENCE = 0x30;

/** basicConstraints' value: SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER OPTIONAL }. */
function basicConstraints(der: Uint8Array, value: Element): { ca: boolean; maxPathLen?: number } | undefined {
  const seq = element(der, value.start, value.end);
  if (!seq || seq.tag !== SEQUENCE) return undefined;
  const fields = children(der, seq);
  if (!fields) return undefined;
  let ca = false;
  let maxPathLen: number | undefined;
  for (const f of fields) {
    if (f.tag === 0x01) ca = f.end > f.start && der[f.start] !== 0;
    else if (f.tag === 0x02) {
      // Go refuses a negative or oversized pathLen; treat either as unparseable.
      if (f.end - f.start > 4 || f.end === f.start || der[f.start] & 0x80) return undefined;
      maxPathLen = 0;
      for (let i = f.start; i < f.end; i++) maxPathLen = maxPathLen * 256 + der[i];
    } else return undefined;
  }
  return { ca, maxPathLen };
}

/** The extensions of a DER certificate (see the file comment). */
export function certificateExtensions(der: Uint8Array): CertificateExtensions | undefined {
  const cert = element(der, 0, der.length);
  if (!cert || cert.tag !== SEQUENCE) return undefined;
  const tbs = element(der, cert.start, cert.end);
  if (!tbs || tbs.tag !== SEQUENCE) return undefined;
  const fields = children(der, tbs);
  if (!fields) return undefined;
  const out: CertificateExtensions = { version: 1, basicConstraints: false, ca: false, nameConstraints: false, subjectAltName: false, unhandledCritical: [] };
  const versionField = fields.find((f) => f.tag === 0xa0);
  if (versionField) {
    const v = element(der, versionField.start, versionField.end);
    if (!v || v.tag !== 0x02 || v.end - v.start !== 1) return undefined;
    out.version = der[v.start] + 1;
  }
  const extensionsField = fields.find((f) => f.tag === 0xa3);
  if (!extensionsField) return out;
  const list = element(der, extensionsField.start, extensionsField.end);
  const extensions = list && list.tag === SEQUENCE ? children(der, list) : undefined;
  if (!extensions) return undefined;
  for (const ext of extensions) {
    const parts = ext.tag === SEQUENCE ? children(der, ext) : undefined;
    if (!parts || parts.length < 2 || parts[0].tag !== 0x06) return undefined;
    const id = oid(der, parts[0]);
    const critical = parts.length === 3 && parts[1].tag === 0x01 && parts[1].end > parts[1].start && der[parts[1].start] !== 0;
    const value = parts[parts.length - 1];
    if (value.tag !== 0x04) return undefined;
    if (critical && !HANDLED.has(id)) out.unhandledCritical.push(id);
    if (id === '2.5.29.19') {
      const bc = basicConstraints(der, value);
      if (!bc) return undefined;
      out.basicConstraints = true;
      out.ca = bc.ca;
      out.maxPathLen = bc.maxPathLen;
    } else if (id === '2.5.29.30') out.nameConstraints = true;
    else if (id === '2.5.29.17') out.subjectAltName = true;
  }
  return out;
}
