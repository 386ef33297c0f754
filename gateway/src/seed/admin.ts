import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { normalizePhone, ROLE_ADMIN, ROLE_USER } from '@custom-room/contract';
import { isUniqueViolation } from '../db/index.js';
import { claimSiteOrganiser } from '../db/organisers.js';
import { deleteUserSessions } from '../db/sessions.js';
import { findUserByEmail, insertUser, updateUser } from '../db/users.js';
import { isoAt } from '../lib/clock.js';
import { hashPassword, verifyPassword } from '../lib/passwords.js';

/** DATA_DIR/admin-password.txt holds the generated admin password when ADMIN_PASSWORD is not set. */
export function adminPasswordFile(dataDir: string) {
  return path.join(dataDir, 'admin-password.txt');
}

function resolveAdminPassword(app: FastifyInstance): string {
  if (app.config.ADMIN_PASSWORD) return app.config.ADMIN_PASSWORD;
  const file = adminPasswordFile(app.config.DATA_DIR);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const generated = crypto.randomBytes(12).toString('base64url');
  fs.mkdirSync(app.config.DATA_DIR, { recursive: true });
  fs.writeFileSync(file, generated + '\n', { mode: 0o600 });
  app.log.warn({ file }, 'ADMIN_PASSWORD is not set: generated an admin password into this file');
  return generated;
}

/** Makes sure the ADMIN_* account exists, has ROLE_ADMIN and the configured password. */
export async function ensureAdmin(app: FastifyInstance): Promise<void> {
  const { db } = app.store;
  const email = app.config.ADMIN_EMAIL.toLowerCase();
  const password = resolveAdminPassword(app);
  const roles = [ROLE_USER, ROLE_ADMIN];
  const existing = await findUserByEmail(db, email);
  // Decision 065: the first site admin owns the Site organiser (the tournaments made before organisers existed).
  const claimSite = async (id: number) => claimSiteOrganiser(db, id, isoAt(app.clock.now()));
  if (existing) {
    await claimSite(existing.id);
    const samePassword = await verifyPassword(existing.password_hash, password);
    await updateUser(db, existing.id, { roles, ...(samePassword ? {} : { passwordHash: await hashPassword(password) }) });
    // A rotated admin password also ends the tokens handed out under the old one.
    if (!samePassword) await deleteUserSessions(db, existing.id);
    return;
  }
  try {
    const id = await insertUser(
      db,
      {
        email,
        phone: normalizePhone(app.config.ADMIN_PHONE) ?? app.config.ADMIN_PHONE,
        username: app.config.ADMIN_USERNAME,
        passwordHash: await hashPassword(password),
        roles,
      },
      isoAt(app.clock.now()),
    );
    await claimSite(id);
    app.log.info({ email }, 'admin account created');
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Another gateway instance starting at the same moment created it first, unless the
    // username or phone belongs to someone else: then there would silently be no admin.
    if (!(await findUserByEmail(db, email))) {
      throw new Error('ADMIN_USERNAME / ADMIN_PHONE: already used by another account; choose different ones');
    }
  }
}
