// "Builds" the library into dist/ (a copy with a banner), as a stand-in for a bundler.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

mkdirSync('dist', { recursive: true });
const src = readFileSync('src/semver-lite.js', 'utf8');
writeFileSync('dist/index.js', `// built by scripts/build.mjs\n${src}`);
console.log('build: wrote dist/index.js');
