/**
 * The Content-Security-Policy of every page muster writes: nothing may be
 * fetched, and no script runs unless its hash is listed — so a page opens
 * offline, and user text that slipped into one could never run.
 */
import { createHash } from 'node:crypto';

const scriptHash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export interface PolicyOptions {
  /** The calculator's simulation workers start from a Blob URL made from the page's own bundle. */
  blobWorkers?: boolean;
}

/** The policy for a page whose inline scripts are exactly `scripts`. */
export function contentPolicy(scripts: readonly string[], options: PolicyOptions = {}): string {
  return [
    "default-src 'none'",
    // vega compiles its expressions with the Function constructor, hence 'unsafe-eval'; no script runs unless its hash
    // is listed.
    // (Blob-URL workers inherit this policy, so a bundled rule file's per-trial loop is compiled there too.)
    `script-src ${scripts.map(scriptHash).join(' ')} 'unsafe-eval'`,
    ...(options.blobWorkers ? ['worker-src blob:'] : []),
    "style-src 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
  ].join('; ');
}
