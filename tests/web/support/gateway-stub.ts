// Moved to tests/support/gateway-stub.ts, the one home of test helpers (decision 063); this path stays for its importers.
export * from '../../support/gateway-stub';
