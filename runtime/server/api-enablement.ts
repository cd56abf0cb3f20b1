/**
 * kube's --runtime-config (k8s.io/apiserver pkg/server/resourceconfig): which group/versions are
 * served. Overrides are applied as kube applies them: `api/all`, then `api/ga`, `api/beta`,
 * `api/alpha` (each true or false over the versions of that stability), then explicit
 * `<group>/<version>` keys (`v1` or `/v1` for the legacy core group), which win.
 *
 * kgen serves every compiled version unless told otherwise (unserved versions are never
 * compiled in). The legacy core group and the two groups the server chain is built on
 * (apiextensions.k8s.io/v1, apiregistration.k8s.io/v1) cannot be turned off: the stability keys
 * pass them by, and naming them is an error. Disabling single resources
 * (`<group>/<version>/<resource>`), deprecated in kube, is not supported.
 */
const GA = /^v\d+$/;
const BETA = /^v\d+beta\d+$/;
const ALPHA = /^v\d+alpha\d+$/;

const MATCHERS: [string, (version: string) => boolean][] = [
  ['api/all', () => true],
  ['api/ga', (v) => GA.test(v)],
  ['api/beta', (v) => BETA.test(v)],
  ['api/alpha', (v) => ALPHA.test(v)],
];

/** The group/versions kgen's own server chain needs. */
const REQUIRED = new Set(['/v1', 'apiextensions.k8s.io/v1', 'apiregistration.k8s.io/v1']);

export type RuntimeConfig = ReadonlyMap<string, string>;

/** kube's ConfigurationMap: `key=value` pairs, comma-separated, repeatable; a bare key is `key=`. */
export function parseRuntimeConfig(values: readonly string[]): RuntimeConfig {
  const out = new Map<string, string>();
  for (const value of values) {
    for (const pair of value.split(',')) {
      const trimmed = pair.trim();
      if (trimmed === '') continue;
      const eq = trimmed.indexOf('=');
      out.set(eq < 0 ? trimmed : trimmed.slice(0, eq).trim(), eq < 0 ? '' : trimmed.slice(eq + 1).trim());
    }
  }
  return out;
}

function parseBool(key: string, value: string): boolean {
  if (value === '') return true;
  if (/^(1|t|T|TRUE|true|True)$/.test(value)) return true;
  if (/^(0|f|F|FALSE|false|False)$/.test(value)) return false;
  throw new Error(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}

const keyOf = (group: string, version: string) => `${group}/${version}`;

export class APIEnablement {
  private readonly stability: [(version: string) => boolean, boolean][] = [];
  private readonly explicit = new Map<string, boolean>();

  /** Throws kube's messages for invalid keys and values. */
  constructor(readonly overrides: RuntimeConfig = new Map()) {
    if (overrides.size === 1 && overrides.get('api/all') === 'false') throw new Error('invalid runtime-config with only api/all=false');
    for (const [key, match] of MATCHERS) {
      const value = overrides.get(key);
      if (value === undefined) continue;
      if (value !== 'true' && value !== 'false') throw new Error(`invalid value ${key}=${value}`);
      this.stability.push([match, value === 'true']);
    }
    for (const [key, value] of overrides) {
      if (MATCHERS.some(([m]) => m === key)) continue;
      const tokens = key.split('/');
      if (tokens.length === 3) throw new Error(`runtime-config ${key}: disabling single resources is not supported by kgen (kube deprecated it); disable the group/version`);
      if (tokens.length > 3) throw new Error(`runtime-config invalid key ${key}`);
      const [group, version] = tokens.length === 1 ? ['', tokens[0]!] : [tokens[0] === 'api' ? '' : tokens[0]!, tokens[1]!];
      if (!/^v\d+((alpha|beta)\d+)?$/.test(version)) throw new Error(`runtime-config invalid key ${key}`);
      const enabled = parseBool(key, value);
      if (!enabled && REQUIRED.has(keyOf(group, version))) throw new Error(`runtime-config ${key}=false: ${group || 'the core group'} ${version} cannot be disabled: kgen's server needs it`);
      this.explicit.set(keyOf(group, version), enabled);
    }
  }

  /** Whether the compiled group/version is served. */
  enabled(group: string, version: string): boolean {
    const key = keyOf(group, version);
    const explicit = this.explicit.get(key);
    if (explicit !== undefined) return explicit;
    if (REQUIRED.has(key)) return true;
    let enabled = true;
    for (const [match, value] of this.stability) if (match(version)) enabled = value;
    return enabled;
  }

  /** The group/versions named explicitly (to check against what is compiled). */
  named(): { group: string; version: string; key: string }[] {
    return [...this.explicit.keys()].map((k) => {
      const slash = k.indexOf('/');
      return { group: k.slice(0, slash), version: k.slice(slash + 1), key: k };
    });
  }
}
