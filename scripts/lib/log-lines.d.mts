import type { Readable } from 'node:stream';

/** Types of log-lines.mjs (plain JavaScript: scripts/start.mjs imports it). */

export declare function readableLogs(stream?: Pick<NodeJS.WriteStream, 'isTTY'>, env?: Record<string, string | undefined>): boolean;
export declare function formatLogLine(line: string, part: string, options?: { color?: boolean }): string;
export declare function printReadable(input: Readable, part: string, out?: NodeJS.WriteStream): void;
