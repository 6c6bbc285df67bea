/**
 * The Dockerfile, checked against the package's own files: no container
 * builder can run here (no registry but npm's and Debian's to pull a base
 * image from), so the test reads its instructions and holds them against
 * what the build produces and what the package declares.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  files: string[];
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The Dockerfile's stages: each FROM line and the instructions after it (comments and blank lines dropped). */
function stages(): Array<{ from: string; lines: string[] }> {
  const result: Array<{ from: string; lines: string[] }> = [];
  for (const raw of dockerfile.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (/^FROM /i.test(line)) result.push({ from: line, lines: [] });
    else result[result.length - 1]?.lines.push(line);
  }
  return result;
}

/** Every .js file below `folder`. */
function jsFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.js'))
    .map((name) => join(folder, name));
}

describe('the Dockerfile', () => {
  const [build, runtime] = stages();

  it('builds on Node 20 slim in two stages, the last with production dependencies only', () => {
    expect(stages()).toHaveLength(2);
    expect(build.from).toMatch(/^FROM node:20-slim AS build$/);
    expect(runtime.from).toBe('FROM node:20-slim');
    expect(runtime.lines).toContainEqual(expect.stringMatching(/^RUN npm ci --omit=dev\b/));
    expect(build.lines).toContain('RUN npm run build');
  });

  it('runs as a user without root, with muster as its entry point and on the PATH', () => {
    const users = runtime.lines.filter((line) => /^USER /.test(line));
    expect(users).toEqual(['USER node']);
    // USER comes before the entry point, so nothing after it runs as root.
    expect(runtime.lines.indexOf('USER node')).toBeLessThan(
      runtime.lines.findIndex((line) => line.startsWith('ENTRYPOINT')),
    );
    expect(runtime.lines).toContain('ENTRYPOINT ["muster"]');
    const link = runtime.lines.find((line) => /ln -s .* \/usr\/local\/bin\/muster$/.test(line));
    expect(link, 'a muster command on the PATH').toBeDefined();
    // The link points at the package's bin, inside the folder the runtime stage copies dist/ to.
    expect(link).toContain(`/opt/muster/${pkg.bin.muster}`);
  });

  it('copies what exists: every source of a COPY from the context is a file or folder of the project', () => {
    for (const stage of [build, runtime]) {
      for (const line of stage.lines.filter((l) => /^COPY /.test(l) && !/--from=/.test(l))) {
        const parts = line.split(/\s+/).slice(1, -1);
        for (const source of parts) expect(existsSync(join(root, source)), `${line}: ${source}`).toBe(true);
      }
    }
  });

  it('the build stage has every folder tsconfig.json compiles, and .dockerignore keeps none of them out', () => {
    const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { include: string[] };
    const copied = build.lines.filter((l) => /^COPY /.test(l)).flatMap((l) => l.split(/\s+/).slice(1, -1));
    for (const folder of tsconfig.include) expect(copied, folder).toContain(folder);
    const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    for (const needed of [
      ...tsconfig.include,
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'docs',
      'README.md',
    ])
      expect(ignored, needed).not.toContain(needed);
  });

  it('the runtime stage holds every file the package declares (package.json "files")', () => {
    // The runtime copies dist/ whole from the build stage, docs/ and README.md from the context.
    // A COPY's sources land in its target folder under their own names (the target `./` being the work folder).
    const copied = runtime.lines
      .filter((l) => /^COPY /.test(l))
      .flatMap((l) => {
        const words = l.split(/\s+/).filter((w) => !w.startsWith('--'));
        const target = words.at(-1)!;
        const sources = words.slice(1, -1);
        return target === './' ? sources : [target.replace(/\/$/, '')];
      });
    // A declared entry is shipped when the folder (or file) it lies in is copied.
    for (const entry of pkg.files)
      expect(
        copied.some((path) => entry === path || entry.startsWith(`${path}/`)),
        `${entry} in ${copied.join(', ')}`,
      ).toBe(true);
  });

  it('nothing the package ships imports a devDependency or a package it does not declare', async () => {
    // The shipped files are those package.json names, as built into dist/ (the test run builds first).
    const shipped = pkg.files
      .filter((entry) => entry.startsWith('dist/'))
      .flatMap((entry) =>
        statSync(join(root, entry)).isDirectory() ? jsFiles(join(root, entry)) : [join(root, entry)],
      );
    expect(shipped.length).toBeGreaterThan(50);
    // esbuild parses every shipped file and lists what each imports, statically or by import(), packages left external.
    const { metafile } = await esbuild.build({
      entryPoints: shipped,
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outdir: join(root, 'dist-unused'),
      logLevel: 'silent',
    });
    const builtins = new Set(builtinModules);
    const problems: string[] = [];
    for (const [file, input] of Object.entries(metafile.inputs)) {
      for (const imported of input.imports.filter((i) => i.external)) {
        if (imported.path.startsWith('node:') || builtins.has(imported.path)) continue;
        const name = imported.path.startsWith('@')
          ? imported.path.split('/').slice(0, 2).join('/')
          : imported.path.split('/')[0];
        if (!Object.hasOwn(pkg.dependencies, name))
          problems.push(
            `${file} imports ${name}${Object.hasOwn(pkg.devDependencies, name) ? ' (a devDependency)' : ''}`,
          );
      }
    }
    expect(problems).toEqual([]);
  });

  it('is the image the cluster examples name, built as docs/cluster.md says', () => {
    const doc = readFileSync(join(root, 'docs/cluster.md'), 'utf8');
    const images = new Set([...doc.matchAll(/image"?\s*[:=]\s*"?([\w./:-]+muster:[\w.-]+)/g)].map((m) => m[1]));
    expect(images.size, 'one image for every example').toBe(1);
    const [image] = images;
    expect(doc).toContain(`docker build -t ${image} .`);
    expect(
      image.endsWith(`:${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}`),
      'tagged with the package version',
    ).toBe(true);
  });
});
