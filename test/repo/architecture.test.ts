/**
 * The layers' import rules, read from the source itself. Every import is an
 * edge: static, type-only, re-exported and dynamic (`import('…')`), as
 * TypeScript's own `ts.preProcessFile` finds them (which, unlike a regular
 * expression, does not take an `import` written inside a string or template,
 * such as the rule-file template's, for one). A type-only cycle costs nothing
 * at run time but still ties two modules together for a reader, so it counts.
 *
 *   - no cycle anywhere in src/, reports/, workers/, scripts/;
 *   - no import climbs the numbered layers of docs/architecture.md (the rank table below, one row a layer);
 *   - reports/ (rendering, bundled into the page) never imports src/cli/;
 *   - reports/ runs nothing: it imports neither the pool nor a simulation (the calculator page, src/page/, does);
 *   - src/analysis/ imports neither reports/ nor src/cli/;
 *   - what the package ships (src/, reports/, workers/) imports no devDependency.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TREES = ['src', 'reports', 'workers', 'scripts'];
const SHIPPED = ['src', 'reports', 'workers'];

/** Every TypeScript source file under the trees, as a path from the root with forward slashes. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.(m|c)?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const tree of TREES) walk(tree);
  return files.sort();
}

interface Edge {
  from: string;
  /** A file of the tree (relative imports), or a package's name. */
  to: string;
  local: boolean;
}

/** The file a relative specifier names: NodeNext imports a .ts module by its .js name. */
function resolveLocal(from: string, specifier: string): string {
  const joined = normalize(join(dirname(from), specifier))
    .split(sep)
    .join('/');
  return joined
    .replace(/\.js$/, '.ts')
    .replace(/\.mjs$/, '.mts')
    .replace(/\.cjs$/, '.cts');
}

/** The package a bare specifier belongs to: `vitest/config` → vitest, `@biomejs/biome/x` → @biomejs/biome. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function importGraph(files: readonly string[]): Edge[] {
  const edges: Edge[] = [];
  for (const from of files) {
    const info = ts.preProcessFile(readFileSync(join(ROOT, from), 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      if (fileName.startsWith('node:')) continue;
      const local = fileName.startsWith('.');
      edges.push({ from, to: local ? resolveLocal(from, fileName) : packageOf(fileName), local });
    }
  }
  return edges;
}

/** One cycle, as a path that ends where it starts, or null: depth-first, the grey set being the current path. */
function findCycle(files: readonly string[], edges: readonly Edge[]): string[] | null {
  const next = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const edge of edges) if (edge.local) next.get(edge.from)?.push(edge.to);
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (file: string): string[] | null => {
    if (onPath.has(file)) return [...path.slice(path.indexOf(file)), file];
    if (done.has(file)) return null;
    path.push(file);
    onPath.add(file);
    for (const to of next.get(file) ?? []) {
      const cycle = visit(to);
      if (cycle) return cycle;
    }
    path.pop();
    onPath.delete(file);
    done.add(file);
    return null;
  };
  for (const file of files) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

const under = (path: string, folder: string) => path.startsWith(`${folder}/`);
const shown = (edges: readonly Edge[]) => edges.map((edge) => `${edge.from} → ${edge.to}`).join('\n');

const files = sourceFiles();
const edges = importGraph(files);

describe('the import graph of src/, reports/, workers/ and scripts/', () => {
  it('is read whole: every relative import names a file of the tree, and known edges are found', () => {
    // A specifier resolved wrongly would drop its edge and let a cycle through unseen.
    const missing = edges.filter((edge) => edge.local && !files.includes(edge.to));
    const unresolved = missing.filter((edge) => {
      try {
        return !statSync(join(ROOT, edge.to)).isFile();
      } catch {
        return true;
      }
    });
    expect(shown(unresolved), 'imports that name no file').toBe('');
    expect(files.length).toBeGreaterThan(100);
    // Edges of each kind the parser must see: static, type-only, dynamic.
    const has = (from: string, to: string) => edges.some((edge) => edge.from === from && edge.to === to);
    expect(has('src/analysis/sweep.ts', 'src/analysis/evaluate.ts'), 'static').toBe(true);
    expect(has('src/analysis/best.ts', 'src/analysis/sweep-result.ts'), 'type-only').toBe(true);
    expect(has('src/rule-files/ref.ts', 'src/rule-files/load.ts'), 'dynamic').toBe(true);
    expect(has('src/rule-files/load.ts', 'esbuild'), 'a package').toBe(true);
  });

  it('has no cycle', () => {
    const cycle = findCycle(files, edges);
    expect(cycle?.join(' → ') ?? '', 'an import cycle').toBe('');
  });

  it('reports/ never imports src/cli/ (the page and the book render; the CLI is one of their clients)', () => {
    const wrong = edges.filter((edge) => edge.local && under(edge.from, 'reports') && under(edge.to, 'src/cli'));
    expect(shown(wrong)).toBe('');
  });

  it('reports/ runs nothing: no pool, no simulation (the calculator page, src/page/, runs its own)', () => {
    const runners = ['src/engine/pool.ts', 'src/engine/simulate.ts', 'src/engine/simulate-many.ts'];
    const wrong = edges.filter((edge) => edge.local && under(edge.from, 'reports') && runners.includes(edge.to));
    expect(shown(wrong)).toBe('');
  });

  it('src/analysis/ imports neither reports/ nor src/cli/', () => {
    const wrong = edges.filter(
      (edge) =>
        edge.local &&
        under(edge.from, 'src/analysis') &&
        (under(edge.to, 'reports') || under(edge.to, 'src/cli') || edge.to === 'src/cli.ts'),
    );
    expect(files.some((file) => under(file, 'src/analysis'))).toBe(true);
    expect(shown(wrong)).toBe('');
  });

  it('what the package ships imports no devDependency (npm ci --omit=dev leaves them out)', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const dev = new Set(Object.keys(manifest.devDependencies));
    expect(dev.has('playwright-core') && dev.has('vitest')).toBe(true);
    const wrong = edges.filter(
      (edge) => !edge.local && SHIPPED.some((tree) => under(edge.from, tree)) && dev.has(edge.to),
    );
    expect(shown(wrong)).toBe('');
    // The same trees name no package that is not installed as a dependency at all.
    const known = new Set([...Object.keys(manifest.dependencies), ...dev]);
    const unknown = edges.filter(
      (edge) => !edge.local && SHIPPED.some((tree) => under(edge.from, tree)) && !known.has(edge.to),
    );
    expect(shown(unknown), 'packages package.json does not declare').toBe('');
  });
});

/**
 * The numbered layers of docs/architecture.md, one row a layer, top (1) to bottom: a file imports only files of
 * its own layer or of a layer above it (a smaller number). The rule contract (`src/contract/`: the `Rule` types,
 * `Dice`, parameter values; types only) is the one folder every layer may name. The first row that matches a file
 * gives its layer.
 */
const LAYERS: ReadonlyArray<readonly [number, RegExp]> = [
  [1, /^src\/(stats|exact|text)\/|^src\/(errors|decimal|keyed|version)\.ts$/],
  [2, /^src\/(input|output|guard)\//],
  [3, /^src\/(contract|presentation)\//],
  [4, /^src\/(result|result-distribution|best-of)\.ts$/],
  [5, /^src\/engine\//],
  [6, /^src\/(rules|rule-files)\//],
  [7, /^src\/analysis\//],
  [8, /^reports\//],
  [9, /^src\/library\//],
  [10, /^src\/page\//],
  [11, /^src\/shards\//],
  [12, /^src\/cli\/|^src\/cli\.ts$/],
  [13, /^workers\//],
];
const isContract = (file: string) => under(file, 'src/contract');

function layerOf(file: string): number | undefined {
  return LAYERS.find(([, pattern]) => pattern.test(file))?.[0];
}

/** The imports that climb: from a file to one of a lower layer (a larger number), the contract aside. */
function climbing(edges: readonly Edge[]): Edge[] {
  return edges.filter((edge) => {
    if (!edge.local || isContract(edge.to)) return false;
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    return from !== undefined && to !== undefined && to > from;
  });
}

describe('the layers of docs/architecture.md, held', () => {
  const shipped = files.filter((file) => SHIPPED.some((tree) => under(file, tree)));

  it('every shipped file has a layer', () => {
    expect(shipped.filter((file) => layerOf(file) === undefined)).toEqual([]);
    expect(shipped.length).toBeGreaterThan(100);
  });

  it('no import climbs: each file imports its own layer or those above it', () => {
    expect(shown(climbing(edges))).toBe('');
  });

  it('fails on a planted upward import, of each pair of layers', () => {
    // One file of each layer, importing one file of each layer below it: every such edge is caught.
    const sample = LAYERS.map(([layer]) => shipped.find((file) => layerOf(file) === layer));
    expect(sample.every((file) => file !== undefined)).toBe(true);
    const planted: Edge[] = [];
    for (const [i, from] of sample.entries())
      for (const to of sample.slice(i + 1))
        if (from && to && !isContract(to) && (layerOf(to) ?? 0) > (layerOf(from) ?? 0))
          planted.push({ from, to, local: true });
    expect(planted.length).toBeGreaterThanOrEqual(LAYERS.length);
    expect(climbing([...edges, ...planted])).toEqual(planted);
    // The engine naming the rule registry, as it once did for a default parameter: refused.
    const registry: Edge = { from: 'src/engine/run-chunks.ts', to: 'src/rules/index.ts', local: true };
    expect(climbing([registry])).toEqual([registry]);
    // The result contract evaluating, as it once did (result.ts calling rules/exact-of.ts): refused, since
    // analysis evaluates and the result only assembles.
    const evaluating: Edge = { from: 'src/result.ts', to: 'src/rules/exact-of.ts', local: true };
    expect(climbing([evaluating])).toEqual([evaluating]);
  });

  it('the contract is named by type only', () => {
    const valueImport = /^import (?!type )[^;]*from '(\.\.\/)+contract\/[a-z-]+\.js'/m;
    const withinContract = /^import (?!type )[^;]*from '\.\/[a-z-]+\.js'/m;
    const valueImports = shipped.filter((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      return valueImport.test(text) || (isContract(file) && withinContract.test(text));
    });
    expect(valueImport.test("import { Rule } from '../contract/types.js';"), 'the check sees a value import').toBe(
      true,
    );
    expect(valueImports).toEqual([]);
  });
});
