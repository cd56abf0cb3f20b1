import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// test/run.js's TypeScript loader for the child, not tsx's costlier hooks (~1 s of CPU less per process).
const TS_LOADER = fileURLToPath(new URL('../support/ts-loader.mjs', import.meta.url));
import { after, describe, it } from 'node:test';
import { AuditLogBackend, type AuditEvent } from '../../runtime/audit/index.js';

const dir = mkdtempSync(join(tmpdir(), 'kgen-audit-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function event(n: number): AuditEvent {
  return {
    kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: `id-${n}`, stage: 'ResponseComplete',
    requestURI: '/api', verb: 'get', user: { username: 'alice' }, requestReceivedTimestamp: '2025-01-01T00:00:00.000000Z',
    stageTimestamp: '2025-01-01T00:00:00.000001Z',
  };
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as AuditEvent);

describe('audit log backend', () => {
  it('appends one JSON line per event, creating the directory, mode 0600', async () => {
    const path = join(dir, 'nested', 'deeper', 'audit.log');
    const backend = AuditLogBackend.open(path);
    assert.equal(backend.processEvents(event(1), event(2)), true);
    backend.processEvents(event(3));
    await backend.flush();
    assert.deepEqual(lines(path).map((e) => e.auditID), ['id-1', 'id-2', 'id-3']);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    await backend.close();
  });

  it('appends to an existing log and never truncates it', async () => {
    const path = join(dir, 'existing.log');
    writeFileSync(path, `${JSON.stringify(event(0))}\n`);
    const backend = AuditLogBackend.open(path);
    backend.processEvents(event(1));
    await backend.close();
    const again = AuditLogBackend.open(path);
    again.processEvents(event(2));
    await again.close();
    assert.deepEqual(lines(path).map((e) => e.auditID), ['id-0', 'id-1', 'id-2']);
  });

  it('drops and counts events beyond its bounded buffer instead of blocking', async () => {
    const path = join(dir, 'bounded.log');
    const warnings: string[] = [];
    const backend = AuditLogBackend.open(path, { maxBufferedEvents: 2, warn: (m) => warnings.push(m) });
    // The first event goes straight to the writer; two more fill the queue; the rest are dropped.
    for (let i = 1; i <= 6; i++) assert.equal(backend.processEvents(event(i)), true);
    assert.equal(backend.dropped, 3);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /^audit: 1 event\(s\) dropped: the audit log cannot keep up$/);
    await backend.flush();
    assert.deepEqual(lines(path).map((e) => e.auditID), ['id-1', 'id-2', 'id-3']);
    // Once drained it accepts events again.
    backend.processEvents(event(7));
    await backend.close();
    assert.deepEqual(lines(path).map((e) => e.auditID), ['id-1', 'id-2', 'id-3', 'id-7']);
    backend.processEvents(event(8));
    assert.equal(backend.dropped, 4, 'events after close are dropped');
  });

  it('bounds the buffer by bytes too', async () => {
    const path = join(dir, 'bytes.log');
    const backend = AuditLogBackend.open(path, { maxBufferedBytes: 600, warn: () => undefined });
    for (let i = 1; i <= 10; i++) backend.processEvents(event(i));
    assert.ok(backend.dropped > 0 && backend.dropped < 9, `dropped ${backend.dropped}`);
    await backend.close();
    assert.equal(lines(path).length, 10 - backend.dropped);
  });

  it('fails at once, naming the path, when the log cannot be opened', () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, '');
    assert.throws(() => AuditLogBackend.open(join(file, 'audit.log')), /^Error: cannot open audit log ".*plain-file\/audit.log": /);
  });

  it('"-" writes to stdout', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const script = `import { AuditLogBackend } from './runtime/audit/index.ts';
      const b = AuditLogBackend.open('-'); b.processEvents(${JSON.stringify(event(1))}); await b.close();`;
    const child = spawnSync(process.execPath, ['--import', TS_LOADER, '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), event(1));
  });
});
