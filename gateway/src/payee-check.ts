// `node gateway/dist/payee-check.js`: npm start's warning (issue 27, decision 055) while a tournament that takes
// fees still pays the placeholder UPI ID. Reads the database the gateway uses; prints nothing when all is well,
// and never fails the start: a check that cannot run says so in one line.
import { pathToFileURL } from 'node:url';
import { PLACEHOLDER_UPI_ID } from '@custom-room/contract';
import { loadConfig } from './config.js';
import { openDatabase } from './db/index.js';
import { tournamentsPayingPlaceholder } from './db/tournaments.js';

const SHOWN = 5;

/** The warning's lines for these tournaments, or none. */
export function placeholderWarning(tournaments: readonly { id: number; name: string }[]): string[] {
  if (tournaments.length === 0) return [];
  const n = tournaments.length;
  const names = tournaments.slice(0, SHOWN).map((t) => `${t.name} (#${t.id})`);
  if (n > SHOWN) names.push(`and ${n - SHOWN} more`);
  return [
    `  Warning: ${n === 1 ? '1 tournament that takes fees still pays' : `${n} tournaments that take fees still pay`} the placeholder UPI ID ${PLACEHOLDER_UPI_ID}, where nobody receives the money: ${names.join(', ')}.`,
    "  Set each one's payee on its tournament form (Admin > Tournament list > Edit), or UPI_PAYEE_VPA and UPI_PAYEE_NAME for the tournaments without one.",
  ];
}

async function main() {
  try {
    const config = loadConfig();
    const store = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
    try {
      const found = await tournamentsPayingPlaceholder(store.db, process.env.UPI_PAYEE_VPA || PLACEHOLDER_UPI_ID);
      for (const line of placeholderWarning(found)) console.log(line);
    } finally {
      await store.close();
    }
  } catch (err) {
    console.log(`  (Could not check the tournaments' payees: ${(err as Error).message})`);
  }
}

// Run as a script (start.mjs); imported (tests), it only lends placeholderWarning.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
