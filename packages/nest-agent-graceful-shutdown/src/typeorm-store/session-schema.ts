import { CreateSessionTables1732147200000 } from './migrations/1732147200000-create-session-tables.js';
import { AddLeasesAndToolCalls1732233600000 } from './migrations/1732233600000-add-leases-and-tool-calls.js';
import { PartialOutputAndApproval1732320000000 } from './migrations/1732320000000-partial-output-and-approval.js';
import { AddRunState1732406400000 } from './migrations/1732406400000-add-run-state.js';
import { AddRunAgentName1732492800000 } from './migrations/1732492800000-add-run-agent-name.js';
import { AddRunEventLogs1732579200000 } from './migrations/1732579200000-add-run-event-logs.js';
import { AddThreadListIndex1732665600000 } from './migrations/1732665600000-add-thread-list-index.js';
import { AddRecordFormat1764028800000 } from './migrations/1764028800000-add-record-format.js';
import { AddLeaseEpoch1764115200000 } from './migrations/1764115200000-add-lease-epoch.js';
import { AddRunCancels1764288000000 } from './migrations/1764288000000-add-run-cancels.js';
import { AddRunAgentRelease1764374400000 } from './migrations/1764374400000-add-run-agent-release.js';
import { AddRunQueue1764460800000 } from './migrations/1764460800000-add-run-queue.js';
import { MessageEntity } from './entities/message.entity.js';
import { RunEventEntity } from './entities/run-event.entity.js';
import { RunEventLogEntity } from './entities/run-event-log.entity.js';
import { RunEntity } from './entities/run.entity.js';
import { ThreadEntity } from './entities/thread.entity.js';
import { ToolCallEntity } from './entities/tool-call.entity.js';
import { QueuedRunEntity } from './entities/queued-run.entity.js';

/** Entities to add to the host's TypeORM `entities`. */
export const SESSION_ENTITIES = [
  ThreadEntity,
  MessageEntity,
  RunEntity,
  ToolCallEntity,
  RunEventLogEntity,
  RunEventEntity,
  QueuedRunEntity,
];

/** Migrations to add to the host's TypeORM `migrations` (run them with `migrationsRun: true` or the CLI). */
export const SESSION_MIGRATIONS = [
  CreateSessionTables1732147200000,
  AddLeasesAndToolCalls1732233600000,
  PartialOutputAndApproval1732320000000,
  AddRunState1732406400000,
  AddRunAgentName1732492800000,
  AddRunEventLogs1732579200000,
  AddThreadListIndex1732665600000,
  AddRecordFormat1764028800000,
  AddLeaseEpoch1764115200000,
  AddRunCancels1764288000000,
  AddRunAgentRelease1764374400000,
  AddRunQueue1764460800000,
];

/**
 * The part of a TypeORM data source's options the sessions need: spread it into yours
 * (merge the arrays if you have entities or migrations of your own).
 * @example TypeOrmModule.forRoot({ type: 'better-sqlite3', database: 'agents.sqlite', ...SESSION_TYPEORM_OPTIONS })
 */
export const SESSION_TYPEORM_OPTIONS = {
  entities: SESSION_ENTITIES,
  migrations: SESSION_MIGRATIONS,
  migrationsRun: true,
} as const;
