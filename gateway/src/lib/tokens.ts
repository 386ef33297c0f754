import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { SignJWT, exportJWK, importPKCS8, jwtVerify, type JWK, type CryptoKey } from 'jose';

export const JWT_ALG = 'ES256';
const ISSUER = 'custom-room-gateway';

export interface TokenUser {
  id: number;
  username: string;
  roles: string[];
}

export interface TokenService {
  sign(user: TokenUser): Promise<{ token: string; expiresAt: string }>;
  verify(token: string): Promise<TokenUser>;
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

  return {
    async sign(user) {
      const expires = Math.floor(Date.now() / 1000) + options.ttlSeconds;
      const token = await new SignJWT({ username: user.username, roles: user.roles })
        .setProtectedHeader({ alg: JWT_ALG, kid, typ: 'JWT' })
        .setSubject(String(user.id))
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(expires)
        .sign(privateKey);
      return { token, expiresAt: new Date(expires * 1000).toISOString() };
    },
    async verify(token) {
      const { payload } = await jwtVerify(token, publicKeyObject, { issuer: ISSUER, algorithms: [JWT_ALG] });
      const id = Number(payload.sub);
      if (!Number.isInteger(id) || typeof payload.username !== 'string' || !Array.isArray(payload.roles)) {
        throw new Error('malformed token');
      }
      return { id, username: payload.username, roles: payload.roles.map(String) };
    },
    jwks: () => ({ keys: [jwk] }),
  };
}
