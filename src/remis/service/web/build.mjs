// Build the page into dist/: one bundled script, one stylesheet, index.html,
// and the Swagger UI files of /docs (from the swagger-ui-dist package, so that
// /docs works without internet). Each text file also gets a .br and a .gz
// twin, which the service sends to browsers that accept them.
import { build } from 'esbuild';
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const out = 'dist';
await rm(out, { recursive: true, force: true });
await mkdir(`${out}/docs`, { recursive: true });
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
const swagger = 'node_modules/swagger-ui-dist';
for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
  await copyFile(`${swagger}/${name}`, `${out}/docs/${name}`);
}

async function compress(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) await compress(path);
    else if (/\.(js|css|html|svg)$/.test(entry.name)) {
      const data = await readFile(path);
      await writeFile(`${path}.gz`, gzipSync(data, { level: 9 }));
      await writeFile(
        `${path}.br`,
        brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
    }
  }
}
await compress(out);
const size = async (p) => (await readFile(p)).length;
console.log(
  `main.js: ${await size(`${out}/main.js`)} bytes, ${await size(`${out}/main.js.gz`)} gzip, ` +
    `${await size(`${out}/main.js.br`)} brotli`,
);
