// A tiny lint: no tabs and no trailing whitespace in src/ and test/.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

let problems = 0;
for (const dir of ['src', 'test']) {
  for (const file of readdirSync(dir)) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (/\t|\s+$/.test(line)) {
        console.error(`${dir}/${file}:${i + 1}: tab or trailing whitespace`);
        problems++;
      }
    });
  }
}
console.log(`lint: ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
