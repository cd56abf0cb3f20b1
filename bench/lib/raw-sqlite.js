// The raw SQLite limit: better-sqlite3 inserting rows (the JSON in argv[3], its name replaced per
// row) into kgen's kv table layout, one IMMEDIATE transaction per row, with kgen's pragmas (WAL,
// synchronous=FULL), for argv[4] seconds. Prints {"rows":n,"seconds":s,"cpuMicros":c} (c: this process's CPU while inserting).
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';

const [dbPath, rowFile, secondsArg, keyPrefix] = process.argv.slice(2);
const template = readFileSync(rowFile, 'utf8');
const db = new Database(dbPath);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`CREATE TABLE IF NOT EXISTS kv (
  revision INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL, value TEXT NOT NULL,
  created INTEGER NOT NULL, deleted INTEGER NOT NULL, prev_revision INTEGER NOT NULL);
  CREATE INDEX IF NOT EXISTS kv_key_revision ON kv (key, revision);`);
const insert = db.prepare('INSERT INTO kv (key, value, created, deleted, prev_revision) VALUES (?, ?, 1, 0, 0)');
const tx = db.transaction((key, value) => insert.run(key, value));
const cpu0 = process.cpuUsage();
const until = performance.now() + Number(secondsArg) * 1000;
const t0 = performance.now();
let n = 0;
while (performance.now() < until) {
  const name = `raw-${process.pid}-${n}`;
  tx.immediate(`${keyPrefix}${name}`, template.replaceAll('__NAME__', name));
  n++;
}
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
db.close();
console.log(JSON.stringify({ rows: n, seconds, cpuMicros: cpu.user + cpu.system }));
