/**
 * POST `serviceaccounts/<name>/token` (kube's TokenRequest subresource, which `kubectl create
 * token` calls): decodes an authentication.k8s.io/v1 TokenRequest (JSON, YAML or protobuf) and
 * answers 201 with what the scope's token REST computes. Nothing is stored.
 */
import { newMethodNotSupported } from '../api/status.js';
import type { APIRequest, APIResponse, RequestScope } from './handler.js';
import { negotiateOutput } from './negotiation.js';
import { parseDryRun } from './queryparams.js';
import { objectResponse } from './responsewriters.js';
import { asObjectOfKind, decodeRequestBody } from './serializer.js';
import { checkObjectMetaDecodes } from './decodemeta.js';

export const TOKEN_REQUEST_KIND = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest' };

export async function createToken(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  if (!scope.tokenRequest) throw newMethodNotSupported({ group: scope.definition.group, resource: `${scope.definition.plural}/token` }, 'create');
  const target = negotiateOutput(req.headers.accept, { transform: false, list: false });
  parseDryRun(req.query, 'CreateOptions');
  const body = decodeRequestBody(req);
  const obj = asObjectOfKind(body.value, TOKEN_REQUEST_KIND);
  checkObjectMetaDecodes(obj, TOKEN_REQUEST_KIND);
  const answer = await scope.tokenRequest(obj, req);
  return objectResponse(201, answer, target.format, []);
}
