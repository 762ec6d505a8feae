import { describeShortHandover } from './support/short-handover-suite';

/**
 * The handover proof (`npm run demo:rolling -- --mode handover --signals postgres`) on PostgreSQL
 * alone: no Redis is started, the instances signal through `LISTEN`/`NOTIFY` and keep their run
 * logs in the database, and they hand runs over (resume mode `auto`) as they do with Redis.
 * Turns of about 4.8 s against a 1 s drain: each SIGTERM finds runs it cannot finish, which it hands over.
 */
describeShortHandover(
  'a rolling deployment that hands runs over on PostgreSQL alone (SIGNALS=postgres) under 12 resumable clients',
  {
    signals: 'postgres',
    demo: { steps: 5, reasoningMs: 400, toolMs: 400 },
  },
);
