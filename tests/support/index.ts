// The test-support module every suite shares (decision 037): test data builders typed from the
// gateway's schemas, the free-port helper and the console guard's allow/expect calls.
export * from './builders';
export { allowConsoleError, allowConsoleWarn, expectConsoleError, expectConsoleWarn } from './console-guard';
export { freePort } from '../../scripts/lib/ports.mjs';
