// Prints the largest functions (by line count) in client/, shared/ and worker/: a refactoring
// yardstick, run by hand (`node scripts/largest-functions.mjs [N]`).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const root = new URL("..", import.meta.url).pathname;
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.ts$/.test(name) && !/\.d\.ts$/.test(name)) files.push(path);
  }
};
for (const dir of ["client", "shared", "worker"]) walk(join(root, dir));

const found = [];
for (const file of files) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name?.getText() ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText() : "<anonymous>");
      found.push({ name, file: relative(root, file), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
found.sort((a, b) => b.lines - a.lines);
for (const f of found.slice(0, Number(process.argv[2] ?? 5))) console.log(`${String(f.lines).padStart(4)}  ${f.name}  ${f.file}:${f.line}`);
