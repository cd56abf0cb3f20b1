/** /version: a version.Info kubectl accepts (v1.32, so no skew warning against kubectl v1.32). */
import { readFileSync } from 'node:fs';

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

const ARCH: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm' };

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

const BUILD_DATE = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

export function versionInfo(): VersionInfo {
  return {
    major: '1',
    minor: '32',
    gitVersion: `v1.32.0-kgen.${packageVersion()}`,
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: BUILD_DATE,
    goVersion: `node${process.versions.node}`,
    compiler: 'tsx',
    platform: `${process.platform}/${ARCH[process.arch] ?? process.arch}`,
  };
}
