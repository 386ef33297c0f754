import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, exportJWK, importPKCS8, jwtVerify, errors, type JWK, type CryptoKey, type JWTHeaderParameters } from 'jose';
import { LRUCache } from 'lru-cache';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '@custom-room/contract';

export const JWT_ALG = 'ES256';
/** Issuer and audience are the contract's (the web app verifies the same): who our tokens are for is the web app and this gateway; a token minted for anything else is refused. */
const ISSUER = TOKEN_ISSUER;
const AUDIENCE = TOKEN_AUDIENCE;
/** How far another machine's clock may be ahead of ours (a token "issued" in the future) or behind. */
export const CLOCK_SKEW_SECONDS = 60;

export interface TokenUser {
  id: number;
  username: string;
  roles: string[];
}

/** The claims a token carries beyond the user: `sid` names its row in `sessions` (decision 019). */
export interface TokenClaims extends TokenUser {
  sid: string;
}

export interface TokenService {
  /**
   * Signs on the real time (Date.now), not the gateway's clock: jose checks exp and iat against the
   * real time, and a token signed on a fake clock's time would be refused. issuedAt is the iat (ISO).
   */
  sign(claims: TokenClaims): Promise<{ token: string; issuedAt: string; expiresAt: string }>;
  /** Checks signature, key id, issuer, audience, exp, iat and age; does not look at the database. */
  verify(token: string): Promise<TokenClaims>;
  jwks(): { keys: JWK[] };
}

export interface KeyOptions {
  privateKeyPem?: string;
  privateKeyFile?: string;
  dataDir: string;
  ttlSeconds: number;
}

/** The signing key comes from JWT_PRIVATE_KEY(_FILE), or is generated once into DATA_DIR and reused. */
export function loadPrivateKeyPem(options: KeyOptions): string {
  if (options.privateKeyPem) return options.privateKeyPem.replace(/\\n/g, '\n');
  if (options.privateKeyFile) return fs.readFileSync(options.privateKeyFile, 'utf8');
  const file = path.join(options.dataDir, 'jwt-private.pem');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
  fs.mkdirSync(options.dataDir, { recursive: true });
  const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  fs.writeFileSync(file, pem, { mode: 0o600 });
  return pem;
}

export async function createTokenService(options: KeyOptions): Promise<TokenService> {
  const pem = loadPrivateKeyPem(options);
  let privateKey: CryptoKey;
  try {
    privateKey = await importPKCS8(pem, JWT_ALG, { extractable: true });
  } catch {
    throw new Error('JWT_PRIVATE_KEY: not a PKCS#8 PEM P-256 (ES256) private key');
  }
  const publicKeyObject = crypto.createPublicKey(pem);
  const publicJwk = await exportJWK(publicKeyObject);
  const kid = crypto.createHash('sha256').update(JSON.stringify(publicJwk)).digest('base64url').slice(0, 16);
  const jwk: JWK = { ...publicJwk, kid, alg: JWT_ALG, use: 'sig' };

  // Only our one published key: a token naming another kid (or none) is not ours.
  const keyFor = (header: JWTHeaderParameters) => {
    if (header.kid !== kid) throw new errors.JWKSNoMatchingKey();
    return publicKeyObject;
  };

  /** Tokens whose signature and claims were checked, with the instant they stop counting (decision 090). */
  const verified = new LRUCache<string, { claims: TokenClaims; until: number }>({ max: 10_000 });

  return {
    async sign({ id, username, roles, sid }) {
      // One reading of the clock for both claims: exp - iat is exactly the TTL, even across a second's edge.
      const issuedAt = Math.floor(Date.now() / 1000);
      const expires = issuedAt + options.ttlSeconds;
      const token = await new SignJWT({ username, roles, sid })
        .setProtectedHeader({ alg: JWT_ALG, kid, typ: 'JWT' })
        .setSubject(String(id))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expires)
        .sign(privateKey);
      return { token, issuedAt: new Date(issuedAt * 1000).toISOString(), expiresAt: new Date(expires * 1000).toISOString() };
    },
    async verify(token) {
      const known = verified.get(token);
      if (known && Date.now() < known.until) return known.claims;
      const { payload } = await jwtVerify(token, keyFor, {
        algorithms: [JWT_ALG],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'iat', 'sub', 'sid'],
        // Also refuses an iat further than the skew in the future. No token is issued for longer
        // than the TTL, so an older one was made with a longer TTL (or by hand): refuse it.
        maxTokenAge: options.ttlSeconds,
        clockTolerance: CLOCK_SKEW_SECONDS,
      });
      const id = Number(payload.sub);
      if (
        !/^[1-9]\d{0,9}$/.test(payload.sub!) ||
        !Number.isSafeInteger(id) ||
        typeof payload.sid !== 'string' ||
        payload.sid === '' ||
        typeof payload.username !== 'string' ||
        !Array.isArray(payload.roles)
      ) {
        throw new Error('malformed token');
      }
      const claims = { id, username: payload.username, roles: payload.roles.map(String), sid: payload.sid };
      // Decision 090: as jwtVerify counts them, the token stops counting at exp plus the skew, or its age
      // past the TTL plus the skew; until then its ES256 signature is not checked again (the session's row
      // still is, on every request that needs a user). Frozen: every request with the token shares it.
      const until = Math.min(payload.exp!, payload.iat! + options.ttlSeconds) + CLOCK_SKEW_SECONDS;
      verified.set(token, { claims: Object.freeze(claims), until: until * 1000 });
      return claims;
    },
    jwks: () => ({ keys: [jwk] }),
  };
}
