/**
 * The shapes of a request's session, shared by the server modules that decide it (client.server.ts),
 * read it (session.server.ts) and confirm it with the gateway (signed-in.server.ts). Types only, in a
 * module of their own so those three import them without importing each other (issue 28: no cycles).
 */

export interface SessionUser {
  id: number;
  username: string;
  roles: string[];
  token: string;
}

/**
 * Whether the session's user is signed in as far as the gateway knows (decision 031). A token can be
 * revoked (logout, "Log out everywhere", a password reset) while it still verifies: only the gateway
 * knows (decision 019). The root loader (the nav) and the login page ask it, once per request.
 */
export type SignedIn =
  /** No token, or one that fails local verification: nobody. */
  | { state: 'none'; user: null }
  /** The gateway accepts the token now; username and roles as the gateway has them. */
  | { state: 'accepted'; user: SessionUser; unread: number }
  /** The gateway refused the token (401): nobody, and the cookie that carried it is to be cleared. */
  | { state: 'refused'; user: null; setCookie: string }
  /** The gateway could not say (down, slow, 5xx): the locally verified user, so an outage logs nobody out. */
  | { state: 'unconfirmed'; user: SessionUser };

/**
 * One request's session (decision 031), read with the session storage's own cookie parser and
 * signature check, its token verified against the gateway's key set (no call per request).
 */
export interface SessionState {
  /** The Cookie header it was read from: the answer holds only for a request that carries exactly this one. */
  cookie: string | null;
  /** The signed-in user the token stands for, or null (no cookie, a bogus or unsigned one, a forged or expired token). */
  user: SessionUser | null;
  /**
   * Nobody signed in and nothing else of this visitor's in the session (a flash message): the page is
   * the one every anonymous visitor gets, so it may come from and go into the page cache, with
   * `Cache-Control: public`. The page cache and `publicPageHeaders` both read this one answer.
   */
  anonymous: boolean;
  /** The gateway's word on the token, asked at most once per request (app/utils/signed-in.server.ts). */
  confirmation?: Promise<SignedIn>;
  /** Gateway answers two loaders of this request share (decision 087: the room page's, which the root reads too). */
  shared?: Map<string, Promise<unknown>>;
}
