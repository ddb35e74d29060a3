/**
 * Where "Edit this page" points: the repository's web editor on the main branch. Set
 * `DOCS_EDIT_BASE` in the build's environment for a fork.
 */
export const EDIT_BASE =
  process.env.DOCS_EDIT_BASE ?? 'https://github.com/engram-dev/engram/edit/main';
