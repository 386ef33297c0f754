import { createCookie } from '@remix-run/node';
import { getEnv } from './env.server';
import { cookieSecure } from './session.server';

// Decision 022: the gateway hands out a device token at each successful login; kept here for a year
// and sent back with the next login, it exempts this browser from the lockout a stranger can cause.
const oneYear = 365 * 24 * 60 * 60;
const MAX_TOKEN_LENGTH = 200;

let cookie: ReturnType<typeof createCookie> | undefined;
function deviceCookie() {
  cookie ??= createCookie('__device', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secrets: getEnv().sessionSecrets,
    maxAge: oneYear,
  });
  return cookie;
}

/** The device token this browser holds, if any (a cookie that is unsigned, tampered with or odd counts as none). */
export async function getDeviceToken(request: Request): Promise<string | undefined> {
  const value: unknown = await deviceCookie().parse(request.headers.get('Cookie'));
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TOKEN_LENGTH ? value : undefined;
}

/** The Set-Cookie header that keeps the device token the gateway returned. */
export function commitDeviceToken(request: Request, token: string): Promise<string> {
  return deviceCookie().serialize(token, { secure: cookieSecure(request) });
}
