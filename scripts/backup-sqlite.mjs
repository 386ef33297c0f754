#!/usr/bin/env node
// Online backup of the SQLite database while the gateway runs (README "Deploying"): SQLite's backup API
// through better-sqlite3 copies a consistent snapshot, WAL included. Never copy the file itself while the
// gateway runs: the last commits may still be in custom-room.sqlite-wal.
//   node scripts/backup-sqlite.mjs [DEST]      (default DEST: DATA_DIR/backups/custom-room-<UTC time>.sqlite)
// Restore: stop the gateway, replace DATA_DIR/custom-room.sqlite with the backup, delete any
// custom-room.sqlite-wal and -shm beside it, start the gateway.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

const dataDir = path.resolve(process.env.DATA_DIR || './data');
const source = path.join(dataDir, 'custom-room.sqlite');
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const dest = path.resolve(process.argv[2] || path.join(dataDir, 'backups', `custom-room-${stamp}.sqlite`));

if (!fs.existsSync(source)) {
  console.error(`backup-sqlite: no database at ${source} (set DATA_DIR)`);
  process.exit(1);
}
if (fs.existsSync(dest)) {
  console.error(`backup-sqlite: ${dest} exists; give a new file name`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(dest), { recursive: true });

const db = new Database(source, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
try {
  const { totalPages } = await db.backup(dest);
  const copy = new Database(dest, { readonly: true });
  const check = copy.pragma('integrity_check', { simple: true });
  copy.close();
  if (check !== 'ok') throw new Error(`integrity check of the copy: ${check}`);
  console.log(`backup-sqlite: ${source} → ${dest} (${totalPages} pages, integrity ok)`);
} catch (err) {
  fs.rmSync(dest, { force: true });
  console.error(`backup-sqlite: failed: ${err.message}`);
  process.exitCode = 1;
} finally {
  db.close();
}
