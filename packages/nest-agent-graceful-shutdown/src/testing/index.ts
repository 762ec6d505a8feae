// `nest-agent-graceful-shutdown/testing`: the behaviour every session store must have, as a
// suite to run against your own store (Jest, or Vitest with `globals: true`).
export { describeSessionStoreContract, type SessionStoreFixture, type SessionStoreTestSettings } from './session-store.contract';
