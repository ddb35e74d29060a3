// Types for the postinstall script, which is plain JavaScript so that npm can run it on any Node.
/** Packages the Worker bundles whose code holds non-ASCII characters esbuild does not escape. */
export declare const PACKAGES: readonly string[];
/** The source with every non-ASCII character written as a `\uXXXX` escape. */
export declare function escapeNonAscii(source: string): string;
/** Escapes every script of the package at `root`; returns how many files changed. */
export declare function escapePackage(root: string): number;
