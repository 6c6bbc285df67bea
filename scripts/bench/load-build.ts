/**
 * A module of a built checkout (this one, or a baseline such as a checkout of
 * main), imported from ROOT/dist: the probes measure either build with its
 * own engine and rules. Typed loosely, since a baseline's exports may differ.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyModule = any;

export const loadFromBuild = (root: string, path: string): Promise<AnyModule> =>
  import(pathToFileURL(join(root, 'dist', path)).href);
