import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Each file (relative to the root, `/`-separated) and the files of the tree it imports. */
export type ImportGraph = Map<string, string[]>;

/**
 * The imports between the `.ts` files under `root`, read with TypeScript's own scanner (no type
 * checking, so the whole of src/ takes well under a second). Type-only imports and re-exports count:
 * they tie the files together as much as any other. Packages and Node's modules are left out.
 * `runTimeOnly` leaves out `import type` and `export type`, which the build erases.
 */
export function importGraph(root: string, { runTimeOnly = false } = {}): ImportGraph {
  const files = fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.[cm]?[jt]s$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
  const known = new Set(files);
  const resolve = (from: string, specifier: string) => {
    if (!specifier.startsWith('.')) return undefined;
    const base = path.posix.join(path.posix.dirname(from), specifier);
    // `./x.js` names the file the build makes of `./x.ts`.
    const source = base.replace(/\.js$/, '.ts');
    return [base, source, `${base}.ts`, `${base}.js`, `${base}/index.ts`, `${base}/index.js`].find(
      (candidate) => known.has(candidate),
    );
  };
  return new Map(
    files.map((file) => {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      const specifiers = runTimeOnly
        ? runTimeSpecifiers(text)
        : ts.preProcessFile(text, true, true).importedFiles.map(({ fileName }) => fileName);
      const targets = specifiers.map((specifier) => resolve(file, specifier));
      return [file, [...new Set(targets.filter((target) => target !== undefined))]];
    }),
  );
}

/**
 * What a file imports when it runs: static imports and re-exports but type-only ones, `import x =
 * require()`, `import()`, `require`.
 */
function runTimeSpecifiers(text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
      found.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      found.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      !node.isTypeOnly &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && isLoader(node.expression) && node.arguments[0]) {
      const [specifier] = node.arguments;
      if (ts.isStringLiteral(specifier)) found.push(specifier.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest));
  return found;
}

function isLoader(callee: ts.Expression): boolean {
  return (
    callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')
  );
}

/** The files that import one another round a circle (strongly connected, more than one file). */
export function circles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== file);
    if (members.length > 1) found.push(members.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** The circle `from → to → … → from`, by the shortest way back from `to` among `members`. */
export function circleThrough(graph: ImportGraph, members: string[], from: string, to: string): string[] {
  const inside = new Set(members);
  const cameFrom = new Map<string, string>();
  const queue = [to];
  while (queue.length > 0 && !cameFrom.has(from)) {
    const file = queue.shift()!;
    for (const target of graph.get(file) ?? []) {
      if (inside.has(target) && target !== to && !cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  const back = [from];
  while (back[0] !== to) back.unshift(cameFrom.get(back[0]!)!);
  return [from, ...back];
}
