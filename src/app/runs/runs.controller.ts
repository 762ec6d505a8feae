import { Body, Controller, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Response } from 'express';
import { AgentRunService, parseRunInput, RunCancelService, type AgentDefinition, type DurableAgent } from 'nest-agent-graceful-shutdown';
import { CurrentUser } from '../auth/current-user.decorator';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';
import { serviceAgent } from '../agent/service-agent';
import { IdParamPipe } from '../http/id-param.pipe';
import { WaitMsPipe } from './wait-ms.pipe';

/** Starts, continues and stops agent runs. */
@Controller('v1/runs')
export class RunsController {
  private readonly agent: AgentDefinition | DurableAgent;

  constructor(
    private readonly runs: AgentRunService,
    private readonly cancels: RunCancelService,
    config: ConfigService,
  ) {
    this.agent = serviceAgent(config.getOrThrow<AppConfig>(APP_CONFIG_KEY));
  }

  /** Body: AG-UI `RunAgentInput`. Answers with the run's AG-UI events as server-sent events. */
  @Post()
  async run(@CurrentUser() userId: string, @Body() body: unknown, @Res() response: Response): Promise<void> {
    const run = await this.runs.start(userId, parseRunInput(body), this.agent);
    await run.streamTo(response);
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
