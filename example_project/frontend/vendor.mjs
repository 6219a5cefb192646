// Copies the browser bundles of @feathersjs/client and socket.io-client (the versions
// package-lock.json pins) into the demo app's static files, where the page loads them:
// `npm ci && npm run vendor`.
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const vendor = join(here, "..", "demo", "static", "vendor");
const bundles = [
  {
    name: "@feathersjs/client",
    target: "feathers",
    files: {
      "dist/feathers.js": "feathers.js",
      "dist/feathers.js.map": "feathers.js.map",
      LICENSE: "LICENSE",
    },
  },
  {
    name: "socket.io-client",
    target: "socket.io",
    files: {
      "dist/socket.io.min.js": "socket.io.min.js",
      "dist/socket.io.min.js.map": "socket.io.min.js.map",
      LICENSE: "LICENSE",
    },
  },
];

for (const { name, target, files } of bundles) {
  const pkg = join(here, "node_modules", ...name.split("/"));
  const directory = join(vendor, target);
  mkdirSync(directory, { recursive: true });
  for (const [source, file] of Object.entries(files)) {
    copyFileSync(join(pkg, source), join(directory, file));
  }
  const { version } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
  console.log(`${name} ${version} copied to ${directory}`);
}
