// Copies the browser bundle of @feathersjs/client (the version package-lock.json pins) into
// the demo app's static files, where the page loads it: `npm ci && npm run vendor`.
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, "node_modules", "@feathersjs", "client");
const target = join(here, "..", "demo", "static", "vendor", "feathers");
const files = {
  "dist/feathers.js": "feathers.js",
  "dist/feathers.js.map": "feathers.js.map",
  LICENSE: "LICENSE",
};

mkdirSync(target, { recursive: true });
for (const [source, name] of Object.entries(files)) {
  copyFileSync(join(pkg, source), join(target, name));
}
const { version } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
console.log(`@feathersjs/client ${version} copied to ${target}`);
