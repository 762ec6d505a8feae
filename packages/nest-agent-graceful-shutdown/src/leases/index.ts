export { LeaseKeeper } from './lease-keeper.service';
export { CrashedRunSweeper } from './crashed-run-sweeper.service';
