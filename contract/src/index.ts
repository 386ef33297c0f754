/** The gateway's API as both sides see it: constants, zod schemas and the endpoint table (decision 035). */
export * from './constants.js';
export * from './name-keys.js';
export * from './schemas/common.js';
export * from './schemas/auth.js';
export * from './schemas/profile.js';
export * from './schemas/tournament.js';
export * from './schemas/registration.js';
export * from './schemas/match.js';
export * from './schemas/points.js';
export * from './schemas/stages.js';
export * from './schemas/operations.js';
export * from './schemas/notifications.js';
export * from './schemas/organisers.js';
export * from './schemas/reports.js';
export * from './schemas/money.js';
export * from './endpoints.js';
export * from './answers.js';
