/** Form names of the notifications page (a browser-safe module: the page's component reads them too). */
export const NOTIFY_INTENTS = {
  read: 'read',
  readAll: 'read-all',
  pushOn: 'push-subscribe',
  pushOff: 'push-unsubscribe',
} as const;

/** The VAPID public key (URL-safe base64) as PushManager.subscribe wants it. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(base64);
  const key = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) key[i] = raw.charCodeAt(i);
  return key;
}
