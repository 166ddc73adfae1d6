import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/*
 * Finds import cycles among the repository's own files, type-only imports included: a type shared
 * both ways couples two files as much as a value does, and hides which one is built on the other.
 * Each project is read with its own tsconfig, so "@/…" and "@pivot/…" resolve as the compiler
 * resolves them. The repository's only cycle check (lint has none: its import-x/no-cycle skipped
 * `import type` and took half of lint's time).
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_PROJECTS = ['apps/server', 'apps/web', 'apps/simulator', 'packages/contracts', 'e2e', 'bench'];

/** The files each file imports (values and types alike), within the repository. */
function importGraph(projects: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const project of projects) {
    const configFile = path.join(root, project, 'tsconfig.json');
    const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configFile));
    const host = ts.createCompilerHost(parsed.options);
    for (const file of parsed.fileNames) {
      const { importedFiles } = ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true);
      const targets = importedFiles
        .map(({ fileName }) => ts.resolveModuleName(fileName, file, parsed.options, host).resolvedModule)
        .filter((resolved) => resolved !== undefined && !resolved.isExternalLibraryImport)
        .map((resolved) => path.normalize(resolved!.resolvedFileName))
        .filter((target) => !target.includes(`${path.sep}node_modules${path.sep}`));
      graph.set(path.normalize(file), targets);
    }
  }
  return graph;
}

/** The graph's strongly connected components of more than one file (Tarjan's algorithm). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    lowest.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(target)!));
      } else if (onStack.has(target)) {
        lowest.set(file, Math.min(lowest.get(file)!, index.get(target)!));
      }
    }
    if (lowest.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** The cycles among the files of these projects (folders with a tsconfig.json), as paths from the root. */
export function importCycles(projects: readonly string[] = DEFAULT_PROJECTS): string[][] {
  return cycles(importGraph(projects)).map((cycle) => cycle.map((file) => path.relative(root, file)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const found = importCycles();
  for (const cycle of found) process.stderr.write(`Import cycle (type-only imports count): ${cycle.join(' ↔ ')}\n`);
  if (found.length > 0) process.exit(1);
  process.stdout.write('No import cycles.\n');
}
