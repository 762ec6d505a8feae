import { CreateSessionTables1732147200000 } from './migrations/1732147200000-create-session-tables';
import { MessageEntity } from './entities/message.entity';
import { RunEntity } from './entities/run.entity';
import { ThreadEntity } from './entities/thread.entity';

/** Entities to add to the host's TypeORM `entities`. */
export const SESSION_ENTITIES = [ThreadEntity, MessageEntity, RunEntity];

/** Migrations to add to the host's TypeORM `migrations` (run them with `migrationsRun: true` or the CLI). */
export const SESSION_MIGRATIONS = [CreateSessionTables1732147200000];
