/**
 * kube's CEL Format library (k8s.io/apiserver/pkg/cel/library/format.go, in CRD rules since 1.31):
 * named string validations, `format.dns1123Label().validate(s)` (optional.none() when s is
 * valid, else optional.of(the list of kube's messages)) and `format.named('dns1123Label')`
 * (an optional Format). The checks are kgen's ports of apimachinery's validation (runtime/api/
 * names.ts) and of kube-openapi's strfmt (formats.ts); uri is url.ParseRequestURI (cel-url.ts).
 */
import { isDNS1035Label, isQualifiedName, isValidLabelValue, nameIsDNSLabel, nameIsDNSSubdomain } from '../api/names.js';
import { requestURIError } from './cel-url.js';
import { isBase64, isDate, isDateTime, isUUID } from './formats.js';

/** cel.Format: equal by name; maxRegexSize prices validate() as kube does. */
export class CelFormat {
  constructor(
    readonly name: string,
    readonly validate: (s: string) => string[],
    readonly maxRegexSize: number,
  ) {}
}

/** apimachinery's maskTrailingDash, for the *Prefix formats (generateName). */
const masked = (s: string): string => (s.length > 1 && s.endsWith('-') ? `${s.slice(0, -2)}a` : s);
const check = (ok: (s: string) => boolean, message: string) => (s: string) => (ok(s) ? [] : [message]);

/** strfmt's UUID and date-time patterns: their lengths are the regex sizes kube prices. */
const UUID_PATTERN_LENGTH = '(?i)(^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$)|(^[0-9a-f]{32}$)'.length;
const DATE_TIME_PATTERN_LENGTH = '^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$'.length;

/** ConstantFormats, by the name format.named() takes. */
export const CEL_FORMATS: ReadonlyMap<string, CelFormat> = new Map([
  ['dns1123Label', new CelFormat('DNS1123Label', (s) => nameIsDNSLabel(s, false), 30)],
  ['dns1123Subdomain', new CelFormat('DNS1123Subdomain', (s) => nameIsDNSSubdomain(s, false), 60)],
  ['dns1035Label', new CelFormat('DNS1035Label', (s) => isDNS1035Label(s), 30)],
  ['qualifiedName', new CelFormat('QualifiedName', isQualifiedName, 60)],
  ['dns1123LabelPrefix', new CelFormat('DNS1123LabelPrefix', (s) => nameIsDNSLabel(s, true), 30)],
  ['dns1123SubdomainPrefix', new CelFormat('DNS1123SubdomainPrefix', (s) => nameIsDNSSubdomain(s, true), 60)],
  ['dns1035LabelPrefix', new CelFormat('DNS1035LabelPrefix', (s) => isDNS1035Label(masked(s)), 30)],
  ['labelValue', new CelFormat('LabelValue', isValidLabelValue, 40)],
  ['uri', new CelFormat('URI', (s) => { const e = requestURIError(s); return e === undefined ? [] : [e]; }, 1103)],
  ['uuid', new CelFormat('uuid', check(isUUID, 'does not match the UUID format'), UUID_PATTERN_LENGTH)],
  ['byte', new CelFormat('byte', check(isBase64, 'invalid base64'), 84)],
  ['date', new CelFormat('date', check(isDate, 'invalid date'), DATE_TIME_PATTERN_LENGTH)],
  ['datetime', new CelFormat('datetime', check(isDateTime, 'invalid datetime'), DATE_TIME_PATTERN_LENGTH)],
]);
