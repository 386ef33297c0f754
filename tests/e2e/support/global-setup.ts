import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { CHANNEL, startYouTubeFake, type YouTubeFake } from '../../fixtures/youtube-fake.mjs';
import { ROOT, Stack, STACK_FILE_ENV, requireBuild, snapshotBuild } from './stack.mjs';

/** The fake YouTube API lives in this (the runner's) process; globalTeardown closes it. */
declare global {
  var e2eYouTubeFake: YouTubeFake | undefined;
}

/** Starts the ONE shared stack (production build) and hands its URLs to the workers through a JSON file. */
export default async function globalSetup(_config: FullConfig): Promise<void> {
  requireBuild();
  // One snapshot of the build for the whole run (the shared stack and the tests' own stacks); teardown removes it.
  const buildDir = snapshotBuild();
  const logDir = path.join(ROOT, 'test-results', 'shared-stack');
  fs.rmSync(logDir, { recursive: true, force: true }); // this run's output only
  // /videos reads the main channel of a local fake YouTube API (two playlists of 12 and 3 videos).
  const youtube = await startYouTubeFake();
  globalThis.e2eYouTubeFake = youtube;
  let stack: Stack;
  try {
    stack = await Stack.start({
      label: 'shared',
      logDir,
      buildDir,
      webEnv: { YOUTUBE_API_KEY: youtube.key, YOUTUBE_CHANNEL_ID: CHANNEL.main, YOUTUBE_API_BASE: youtube.base },
    });
  } catch (err) {
    fs.rmSync(buildDir, { recursive: true, force: true });
    await youtube.close();
    throw err;
  }
  const file = path.join(os.tmpdir(), `e2e-stack-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(stack.info, null, 2));
  process.env[STACK_FILE_ENV] = file;
  console.log(
    `e2e: shared stack up: web ${stack.info.webUrl}, gateway ${stack.info.gatewayUrl} (logs in ${path.relative(ROOT, path.dirname(stack.info.gatewayLog))})`,
  );
}
