// The raw etcd limit: the etcd3 client's own put rate at a given concurrency, with the value in
// argv[3] (its name replaced per key). Keys are distinct (`create`) or cycle over `modulo` keys
// (`update`). argv: endpoint valueFile seconds concurrency keyPrefix modulo(0 = distinct)
// Prints {"puts":n,"seconds":s}.
import { readFileSync } from 'node:fs';
import { Etcd3 } from 'etcd3';

const [endpoint, valueFile, secondsArg, concArg, keyPrefix, moduloArg] = process.argv.slice(2);
const template = readFileSync(valueFile, 'utf8');
const client = new Etcd3({ hosts: endpoint });
const modulo = Number(moduloArg);
let n = 0;
const until = performance.now() + Number(secondsArg) * 1000;
const t0 = performance.now();
let puts = 0;
async function loop() {
  while (performance.now() < until) {
    const i = modulo > 0 ? n % modulo : n;
    n++;
    const name = `raw-${i}`;
    await client.put(`${keyPrefix}${name}`).value(template.replaceAll('__NAME__', name));
    puts++;
  }
}
await Promise.all(Array.from({ length: Number(concArg) }, loop));
const seconds = (performance.now() - t0) / 1000;
client.close();
console.log(JSON.stringify({ puts, seconds }));
