// Runs in each suite of the `e2e-postgres-signals` project: instances signal through PostgreSQL alone.
process.env.E2E_SIGNALS = 'postgres';
