import { Controller, Get, Param } from '@nestjs/common';
import { ThreadQueryService } from 'nest-agent-graceful-shutdown';
import { CurrentUser } from '../auth/current-user.decorator';
import { IdParamPipe } from '../http/id-param.pipe';

/** A thread's status and history; served during a shutdown too. */
@Controller('v1/threads')
export class ThreadsController {
  constructor(private readonly threads: ThreadQueryService) {}

  @Get(':threadId')
  status(@CurrentUser() userId: string, @Param('threadId', new IdParamPipe()) threadId: string) {
    return this.threads.getStatus(userId, threadId);
  }

  @Get(':threadId/messages')
  messages(@CurrentUser() userId: string, @Param('threadId', new IdParamPipe()) threadId: string) {
    return this.threads.getMessages(userId, threadId);
  }
}
