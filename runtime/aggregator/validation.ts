/**
 * APIService validation beyond its schema (kube-aggregator's ValidateAPIService): the name must
 * be `<version>.<group>` (`<version>` for the core group), group and version are required, and
 * insecureSkipTLSVerify may not be combined with a caBundle. Runs as validating admission on
 * creates and updates of apiservices (not their status).
 */
import type { StatusCause } from '../api/meta.js';
import { newInvalid } from '../api/status.js';
import type { AdmissionPlugin } from '../api/admission.js';
import { APIREGISTRATION_GROUP } from './aggregator.js';
import type { APIServiceSpec } from './remote.js';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

export function validateAPIService(name: string, spec: APIServiceSpec): StatusCause[] {
  const causes: StatusCause[] = [];
  const invalid = (field: string, value: unknown, message: string) =>
    causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(value)}: ${message}` });
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  const expected = group ? `${version}.${group}` : version;
  if (name !== expected) invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: "${expected}"`);
  if (group !== '' && !DNS1123_SUBDOMAIN.test(group)) invalid('spec.group', group, 'a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\'');
  if (version === '') causes.push({ reason: 'FieldValueRequired', field: 'spec.version', message: 'Required value' });
  else if (!DNS1035_LABEL.test(version)) invalid('spec.version', version, "a DNS-1035 label must consist of lower case alphanumeric characters or '-', and must start with an alphabetic character");
  if (spec.insecureSkipTLSVerify && spec.caBundle) invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present');
  if (spec.service && !spec.service.name) causes.push({ reason: 'FieldValueRequired', field: 'spec.service.name', message: 'Required value' });
  if (spec.service && !spec.service.namespace) causes.push({ reason: 'FieldValueRequired', field: 'spec.service.namespace', message: 'Required value' });
  return causes;
}

export function apiServiceValidation(): AdmissionPlugin {
  return {
    name: 'APIServiceValidation',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate(attrs) {
      if (attrs.resource.group !== APIREGISTRATION_GROUP || attrs.resource.resource !== 'apiservices' || attrs.subresource !== '' || !attrs.object) return;
      const name = attrs.object.metadata.name ?? attrs.name;
      const causes = validateAPIService(name, (attrs.object.spec ?? {}) as APIServiceSpec);
      if (causes.length > 0) throw newInvalid({ group: APIREGISTRATION_GROUP, kind: 'APIService' }, name, causes);
    },
  };
}
