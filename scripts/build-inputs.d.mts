/** The file in dist/ that holds the hash of the inputs it was built from. */
export declare const BUILD_STAMP: string;
/** The sha256 (hex) of the build's inputs under `root`: each file's path and contents, in sorted order. */
export declare function buildInputsHash(root: string): string;
