import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The browser bundles a report inlines, in load order (vega-embed needs the other two). */
const BUNDLES = [
  { module: 'vega', file: 'vega.min.js' },
  { module: 'vega-lite', file: 'vega-lite.min.js' },
  { module: 'vega-embed', file: 'vega-embed.min.js' },
] as const;

interface VendorScript {
  name: string;
  code: string;
}

let cached: VendorScript[] | undefined;

/**
 * vega, vega-lite and vega-embed as built for browsers, read from the
 * installed packages once. Every package's entry point sits in its build/
 * folder, next to the minified browser bundle, so the entry locates it.
 * The bundles contain no `</script` or `<!--`, so they can be inlined as
 * they are (a test checks).
 */
export function vendorScripts(): VendorScript[] {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  cached = BUNDLES.map(({ module, file }) => {
    const path = join(dirname(require.resolve(module)), file);
    return { name: `${module}/build/${file}`, code: readFileSync(path, 'utf8') };
  });
  return cached;
}
