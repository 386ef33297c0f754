/**
 * The contract's plain values: statuses, roles, field lists, limits and the messages the spec fixes.
 * No zod here (and nothing that imports it): the browser bundle imports this module
 * (`@custom-room/contract/constants`) and must not grow by a validation library.
 *
 * One module per subject, and the package has no side effects (package.json "sideEffects": false):
 * a page's bundle takes only the modules whose values it uses.
 */

export * from './points-systems.js';
export * from './constants/accounts.js';
export * from './constants/payments.js';
export * from './constants/teams.js';
export * from './constants/tournaments.js';
export * from './constants/matches.js';
export * from './constants/images.js';
export * from './constants/messages.js';
export * from './constants/stages.js';
export * from './constants/check-in.js';
export * from './constants/notifications.js';
export * from './constants/places.js';
export * from './constants/identity.js';
export * from './constants/match-time.js';
export * from './constants/phase.js';
export * from './constants/ids.js';
export * from './constants/organisers.js';
export * from './constants/reports.js';

export type FieldErrors = Record<string, string>;
