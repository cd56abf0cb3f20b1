/**
 * POST to a virtual resource (kube's create handler over a rest.Creater, as for
 * SelfSubjectAccessReview): decode (JSON, YAML or protobuf), prune and schema-check the body,
 * then answer 201 with what the resource's Creater computes. Nothing is stored.
 */
import { newInvalid, newMethodNotSupported } from '../api/status.js';
import { toStatusCauses } from '../validation/index.js';
import { bodyProblems, checkUnknownFields } from './fieldvalidation.js';
import { requestWarnings, type APIRequest, type APIResponse, type RequestScope } from './handler.js';
import { negotiateOutput } from './negotiation.js';
import { parseDryRun, parseFieldValidation } from './queryparams.js';
import { decodeTarget } from './requestscope.js';
import { objectResponse } from './responsewriters.js';
import { decodeObjectBody } from './decodemeta.js';

export async function createVirtual(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const { definition } = scope;
  if (!scope.creater) throw newMethodNotSupported({ group: definition.group, resource: definition.plural }, 'create');
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false });
  parseDryRun(req.query, 'CreateOptions');
  const directive = parseFieldValidation(req.query, 'CreateOptions');
  const { obj, body } = decodeObjectBody(scope, req, directive);
  const warnings = requestWarnings(req);
  checkUnknownFields(obj, decodeTarget(scope), directive, warnings, bodyProblems(body));
  scope.validator.applyDefaults(obj);
  // The server fills status; what a client sends there is not part of the question.
  delete obj.status;
  const causes = toStatusCauses(scope.validator.validate(obj));
  if (causes.length) throw newInvalid({ group: definition.group, kind: definition.kind }, obj.metadata.name ?? '', causes);
  const answer = await scope.creater(obj, req);
  return objectResponse(201, answer, target.format, warnings);
}
