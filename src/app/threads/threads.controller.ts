import { Controller, Get, Param, Query } from '@nestjs/common';
import { MAX_MESSAGE_PAGE_SIZE, ThreadQueryService } from 'nest-agent-graceful-shutdown';
import type { MessagePageRequest, ThreadListRequest } from 'nest-agent-graceful-shutdown/types';
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

  /** `GET /v1/threads/{threadId}/messages?limit=&cursor=`: a page of the thread's history, in order. */
  @Get(':threadId/messages')
  messages(
    @CurrentUser() userId: string,
    @Param('threadId', new IdParamPipe()) threadId: string,
    @Query(new ThreadListQueryPipe(MAX_MESSAGE_PAGE_SIZE)) query: MessagePageRequest,
  ) {
    return this.threads.getMessages(userId, threadId, query);
  }
}
