import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  AgentRunService,
  parseRunInput,
  RunCancelService,
  RunStreamService,
  type MultitaskStrategy,
} from 'nest-agent-graceful-shutdown';
import { CurrentUser } from '../auth/current-user.decorator';
import { SERVICE_AGENT_NAME } from '../agent/service-agent.registrar';
import { IdParamPipe } from '../http/id-param.pipe';
import { parseLastEventId } from './last-event-id';
import { WaitMsPipe } from './wait-ms.pipe';

/** Starts, joins, continues and stops agent runs. */
@Controller('v1/runs')
export class RunsController {
  constructor(
    private readonly runs: AgentRunService,
    private readonly streams: RunStreamService,
    private readonly cancels: RunCancelService,
  ) {}

  /**
   * Body: AG-UI `RunAgentInput`. Answers with the run's AG-UI events as server-sent events; a
   * request naming an existing run joins or replays it, after `Last-Event-ID` when sent. Query
   * `multitask` (`reject`, the default, `enqueue`, `interrupt` or `rollback`): what a new run does while the thread's
   * run is active.
   */
  @Post()
  async run(
    @CurrentUser() userId: string,
    @Body() body: unknown,
    @Headers('last-event-id') lastEventIdHeader: string | undefined,
    @Query('multitask') multitask: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const input = parseRunInput(body);
    const lastEventId = parseLastEventId(lastEventIdHeader, undefined);
    const run = await this.runs.start(userId, input, SERVICE_AGENT_NAME, {
      lastEventId,
      multitask: multitask as MultitaskStrategy | undefined,
    });
    await run.streamTo(response);
  }

  /** Joins a run's event stream: the events after `Last-Event-ID`, then live to the terminal event. */
  @Get(':threadId/stream')
  async join(
    @CurrentUser() userId: string,
    @Param('threadId', new IdParamPipe()) threadId: string,
    @Query('runId', new IdParamPipe(true)) runId: string | undefined,
    @Query('lastEventId') lastEventIdQuery: unknown,
    @Headers('last-event-id') lastEventIdHeader: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const lastEventId = parseLastEventId(lastEventIdHeader, lastEventIdQuery);
    await this.streams.join(userId, threadId, { runId, lastEventId }, response);
  }

  /** A user's stop; with `waitMs`, waits for the run to stop and says whether it did. */
  @Post(':threadId/cancel')
  @HttpCode(202)
  async cancel(
    @CurrentUser() userId: string,
    @Param('threadId', new IdParamPipe()) threadId: string,
    @Query('runId', new IdParamPipe(true)) runId: string | undefined,
    @Query('waitMs', WaitMsPipe) waitMs: number | undefined,
    @Res({ passthrough: true }) response: Response,
  ) {
    const result = await this.cancels.cancel(userId, threadId, runId, waitMs);
    if (waitMs !== undefined) response.status(200);
    return result;
  }
}
