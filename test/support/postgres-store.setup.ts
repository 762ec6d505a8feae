import { stopStoreBackend } from './store-backend';

// Runs in each suite of the `e2e-postgres` project: services start on PostgreSQL.
process.env.E2E_STORE = 'postgres';
afterAll(() => stopStoreBackend(), 60_000);
