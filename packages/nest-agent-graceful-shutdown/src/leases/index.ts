export { LeaseKeeper } from './lease-keeper.service.js';
export { CrashedRunSweeper } from './crashed-run-sweeper.service.js';
