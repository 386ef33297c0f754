import type { DatabaseHandle } from '../db/index.js';
import type { Clock } from '../lib/clock.js';

/** What a service needs of the app: the database and the injected clock (the app itself fits). */
export interface ServiceDeps {
  store: DatabaseHandle;
  clock: Clock;
}
