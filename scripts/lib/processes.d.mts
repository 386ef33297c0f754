import type { ChildProcess, SpawnOptions } from 'node:child_process';

/** Types of processes.mjs (plain JavaScript: the scripts import it). */

export type TrackedChild = ChildProcess & { exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> };

export declare function trackGroup(pid: number, child?: ChildProcess): void;
export declare function untrackGroup(pid: number): void;
export declare function onCleanup(fn: () => unknown): () => boolean;
export declare function killGroup(pid: number, timeoutMs?: number): Promise<void>;
export declare function spawnTracked(cmd: string, args: string[], options?: SpawnOptions): TrackedChild;
export declare function run(
  cmd: string,
  args: string[],
  options?: SpawnOptions & { capture?: boolean },
): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string }>;
export declare function startCluster(dir: string): string;
export declare function stopCluster(dir: string): void;
export declare function stopAll(): Promise<void>;
export declare function stopAllOnExit(options?: { signalExitCode?: number }): void;
export declare function onParentGone(fn: () => unknown, intervalMs?: number): () => void;
