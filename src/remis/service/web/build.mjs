// Build the page into dist/: one bundled script, one stylesheet, index.html.
// The service serves dist/index.html at / and dist/ under /static/.
import { build } from 'esbuild';
import { copyFile, mkdir, rm } from 'node:fs/promises';

const out = 'dist';
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({
  entryPoints: { main: 'src/main.ts', style: 'src/style.css' },
  bundle: true,
  format: 'esm',
  target: 'es2020',
  minify: true,
  sourcemap: true,
  outdir: out,
  logLevel: 'info',
  loader: { '.svg': 'dataurl', '.png': 'dataurl' },
});
await copyFile('index.html', `${out}/index.html`);
