/** The documents checked (paths from the repository root): the README and every decision record. */
export declare function citingDocuments(root?: string): string[];
/** Every repository path a Markdown text cites, once each, in order of first mention. */
export declare function citedPaths(markdown: string): string[];
/** Each cited path missing from the tree under root, with the document that cites it. */
export declare function missingPaths(root?: string): { document: string; cited: string }[];
