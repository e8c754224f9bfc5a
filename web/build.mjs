// Builds the web table's page into bot/web/static/, which the Python package ships (so the
// bot runs without Node): table.js (src/main.ts and the Discord SDK, bundled and minified),
// table.css, and index.html naming both by their digest (a new build is a new address).
// It writes SOURCE_SHA256 too: the digest of the source (see sourceDigest), which a test
// compares with the source, so a change without a rebuild fails.
//
//   npm ci && npm run build      (in web/)

import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

import * as esbuild from "esbuild";

const WEB = dirname(fileURLToPath(import.meta.url));
const OUT = join(WEB, "..", "bot", "web", "static");
const SOURCE_FILES = ["build.mjs", "package.json", "package-lock.json", "tsconfig.json"];

function filesUnder(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** sha256 over each source file, by its path in web/ (sorted, with "/"): the path, a NUL,
 *  its bytes, a NUL. The files: everything under src/, and SOURCE_FILES. */
function sourceDigest() {
  const paths = [...filesUnder(join(WEB, "src")), ...SOURCE_FILES.map((f) => join(WEB, f))]
    .map((path) => relative(WEB, path).split(sep).join("/"))
    .sort();
  const hash = createHash("sha256");
  for (const path of paths) {
    hash.update(Buffer.from(path, "utf8"));
    hash.update(Buffer.from([0]));
    hash.update(readFileSync(join(WEB, path)));
    hash.update(Buffer.from([0]));
  }
  return hash.digest("hex");
}

const short = (data) => createHash("sha256").update(data).digest("hex").slice(0, 16);

const bundle = await esbuild.build({
  entryPoints: [join(WEB, "src", "main.ts")],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  platform: "browser",
  legalComments: "eof",
  charset: "utf8",
  write: false,
  logLevel: "warning",
});
const js = Buffer.from(bundle.outputFiles[0].contents);
const css = readFileSync(join(WEB, "src", "table.css"));
const html = readFileSync(join(WEB, "src", "index.html"), "utf8")
  .replace("%TABLE_JS%", `/static/table.js?v=${short(js)}`)
  .replace("%TABLE_CSS%", `/static/table.css?v=${short(css)}`);

mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, "table.js"), js);
writeFileSync(join(OUT, "table.css"), css);
writeFileSync(join(OUT, "index.html"), html);
writeFileSync(join(OUT, "SOURCE_SHA256"), `${sourceDigest()}\n`);
console.log(`built ${relative(process.cwd(), OUT)}: table.js ${js.length} bytes`);
