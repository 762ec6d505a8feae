import { CreateDemoLedger1764201600000 } from './migrations/1764201600000-create-demo-ledger';

/** The service's own tables, migrated with the session tables at boot and by `npm run migrate`. */
export const SERVICE_MIGRATIONS = [CreateDemoLedger1764201600000];
