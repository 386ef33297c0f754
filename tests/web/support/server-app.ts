// Moved to tests/support/server-app.ts, the one home of test helpers (decision 063); this path stays for its importers.
export * from '../../support/server-app';
