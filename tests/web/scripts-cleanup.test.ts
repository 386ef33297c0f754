import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Scripts stop what they start (scripts/lib/processes.mjs, decision 037): a fixture script starts a
 * child and a shell with a grandchild, each group on its own, and whatever way it ends, none is left.
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'tests', 'fixtures', 'cleanup-script.mjs');

/** Running: a zombie (ended, waiting for its parent or init to reap it) does not count. */
const alive = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false;
  }
};

async function startScript(mode: 'wait' | 'crash' | 'exit') {
  const child = spawn(process.execPath, [SCRIPT, mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const pids = await new Promise<number[]>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line).pids);
    });
    void exited.then(() => reject(new Error(`the script ended before it started its children: ${err}`)));
  });
  return { child, pids, exited, stderr: () => err };
}

/** Kills any leftovers, so a failing test does not leave processes behind either. */
function sweep(pids: number[]) {
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
}

describe('scripts stop the processes they started', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`on ${signal}: every child and grandchild is gone when the script has exited (${code})`, async () => {
      const { child, pids, exited } = await startScript('wait');
      try {
        expect(pids.every(alive)).toBe(true);
        child.kill(signal);
        expect(await exited).toEqual({ code, signal: null });
        expect(pids.filter(alive)).toEqual([]);
      } finally {
        sweep(pids);
      }
    });
  }

  it('when its parent goes away: `npm run` stopped by a SIGTERM to npm itself leaves nothing running (issue 27)', async () => {
    // npm passes the signal to the shell between it and the script, which dies without passing it on: the
    // script was re-parented and ran on with all it started (the attack run's `npm run bench:gateway`).
    const npm = spawn('npm', ['run', '--silent', 'wait'], {
      cwd: path.join(ROOT, 'tests', 'fixtures', 'npm-script'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const pids = await new Promise<number[]>((resolve, reject) => {
      npm.stdout.on('data', (d) => {
        out += d;
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve(JSON.parse(line).pids);
      });
      npm.once('exit', () => reject(new Error(`npm ended before the script started its children: ${out}`)));
    });
    // The script itself: the parent of the first child.
    const script = Number(fs.readFileSync(`/proc/${pids[0]}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
    const all = [script, ...pids];
    try {
      expect(all.every(alive)).toBe(true);
      npm.kill('SIGTERM');
      // Noticed within a poll (500 ms), then stopped in order; a generous bound for a loaded machine.
      for (let i = 0; i < 100 && all.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
      expect(all.filter(alive)).toEqual([]);
    } finally {
      sweep(all);
    }
  });

  it('on an uncaught error: the error is printed, everything stopped, exit 1', async () => {
    const { pids, exited, stderr } = await startScript('crash');
    try {
      expect(await exited).toEqual({ code: 1, signal: null });
      expect(stderr()).toContain('the script failed');
      expect(pids.filter(alive)).toEqual([]);
    } finally {
      sweep(pids);
    }
  });

  it('on a normal exit that forgot to stop them: they are stopped anyway', async () => {
    const { pids, exited } = await startScript('exit');
    try {
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(pids.filter(alive)).toEqual([]);
    } finally {
      sweep(pids);
    }
  });
});
