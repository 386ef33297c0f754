import fs from 'node:fs';
import { killGroup, STACK_FILE_ENV, type StackInfo } from './stack.mjs';

/** Ends the shared stack's process groups and removes its data dir: no leftovers. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.e2eYouTubeFake?.close();
  globalThis.e2eYouTubeFake = undefined;
  const file = process.env[STACK_FILE_ENV];
  if (!file || !fs.existsSync(file)) return;
  const info = JSON.parse(fs.readFileSync(file, 'utf8')) as StackInfo;
  await Promise.all(info.pids.map((pid) => killGroup(pid)));
  fs.rmSync(info.dataDir, { recursive: true, force: true });
  fs.rmSync(info.buildDir, { recursive: true, force: true });
  fs.rmSync(file, { force: true });
}
