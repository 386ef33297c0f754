// A token's exp is its iat plus the TTL, exactly: both claims come from one reading of the clock. They
// were read apart, and a reading that crossed a second's edge made exp - iat one short (seen in CI as
// 43199 for a 43200 s TTL, tests/security/tokens.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLOCK_SKEW_SECONDS, createTokenService } from '../../gateway/src/lib/tokens.js';

describe('token claims', () => {
  afterEach(() => vi.restoreAllMocks());

  it('issues exp exactly TTL seconds after iat, from one reading of the clock', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-claims-'));
    try {
      const tokens = await createTokenService({ dataDir, ttlSeconds: 43_200 });
      // The reading the service takes is 0.999 s into a second, long before the wall clock's own now:
      // any claim read from another clock reading differs from it.
      const reading = Date.UTC(2026, 0, 2, 3, 4, 5, 999);
      const now = vi.spyOn(Date, 'now').mockReturnValue(reading);
      const { token, expiresAt } = await tokens.sign({ id: 7, username: 'clock', roles: ['ROLE_USER'], sid: 'one-reading' });
      now.mockRestore();
      const claims = decodeJwt(token);
      expect(claims.iat).toBe(Math.floor(reading / 1000));
      expect(claims.exp! - claims.iat!).toBe(43_200);
      expect(expiresAt).toBe(new Date((Math.floor(reading / 1000) + 43_200) * 1000).toISOString());
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('checks the signature of a token once, and refuses it when it expires all the same (decision 090)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-claims-'));
    try {
      const tokens = await createTokenService({ dataDir, ttlSeconds: 3_600 });
      const { token } = await tokens.sign({ id: 7, username: 'once', roles: ['ROLE_USER'], sid: 's-once' });
      const first = await tokens.verify(token);
      expect(first).toEqual({ id: 7, username: 'once', roles: ['ROLE_USER'], sid: 's-once' });
      expect(await tokens.verify(token)).toBe(first); // not verified again: the claims checked the first time
      expect(Object.isFrozen(first)).toBe(true);
      const exp = decodeJwt(token).exp!;
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime((exp + CLOCK_SKEW_SECONDS - 5) * 1000);
      expect(await tokens.verify(token)).toBe(first); // within the skew after exp, as jwtVerify counts it
      vi.setSystemTime((exp + CLOCK_SKEW_SECONDS + 1) * 1000);
      await expect(tokens.verify(token)).rejects.toThrow();
      // A token altered by one character is refused, though its first form was checked.
      vi.useRealTimers();
      await expect(tokens.verify(`${token.slice(0, -2)}${token.endsWith('A') ? 'B' : 'A'}${token.slice(-1)}`)).rejects.toThrow();
    } finally {
      vi.useRealTimers();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
