import { Controller, Get, Param, Query } from '@nestjs/common';
import { ThreadQueryService } from 'nest-agent-graceful-shutdown';
import type { ThreadListRequest } from 'nest-agent-graceful-shutdown/types';
import { CurrentUser } from '../auth/current-user.decorator';
import { IdParamPipe } from '../http/id-param.pipe';
import { ThreadListQueryPipe } from './thread-list-query.pipe';

/** The caller's threads: the list, each one's status and history; served during a shutdown too. */
@Controller('v1/threads')
export class ThreadsController {
  constructor(private readonly threads: ThreadQueryService) {}

  /** `GET /v1/threads?limit=&cursor=`: the caller's threads, most recently active first. */
  @Get()
  list(@CurrentUser() userId: string, @Query(new ThreadListQueryPipe()) query: ThreadListRequest) {
    return this.threads.listThreads(userId, query);
  }

  @Get(':threadId')
  status(@CurrentUser() userId: string, @Param('threadId', new IdParamPipe()) threadId: string) {
    return this.threads.getStatus(userId, threadId);
  }

  @Get(':threadId/messages')
  messages(@CurrentUser() userId: string, @Param('threadId', new IdParamPipe()) threadId: string) {
    return this.threads.getMessages(userId, threadId);
  }
}
