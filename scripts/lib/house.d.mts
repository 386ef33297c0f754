/** Types of house.mjs (plain JavaScript: scripts/house.mjs imports it). */

export interface FileSize {
  file: string;
  lines: number;
}
export interface FunctionSpan extends FileSize {
  name: string;
  start: number;
}
export declare const ROOT: string;
export declare const SOURCE_DIRS: string[];
export declare const ALL_DIRS: string[];
export declare const LIMITS: { fileLines: number; functionLines: number };
export declare function filesUnder(dir: string): string[];
export declare function fileLines(files: string[]): FileSize[];
export declare function functionsOf(file: string): FunctionSpan[];
export declare function importsOf(file: string): string[];
export declare function cyclesOf(files: string[]): string[][];
export declare function isExemptFile(file: string): boolean;
export declare function measure(): {
  perFolder: { dir: string; files: number; lines: number }[];
  sizes: FileSize[];
  functions: FunctionSpan[];
  cycles: string[][];
};
