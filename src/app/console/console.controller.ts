import { Controller, Get, Inject, NotFoundException, Param, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import { Public } from '../auth/public.decorator';
import { DEV_USER, DevToken } from '../auth/dev-token';
import { APP_CONFIG_KEY, type AppConfig } from '../config/app-config';
import { ConsoleAssets } from './console-assets';
import { isLoopbackRequest } from './loopback-request';

// The page loads only its own files and talks only to this origin.
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The console page at `/` and its files under `/console/assets/`, when `CONSOLE_ENABLED`
 * (default: outside production); 404 otherwise. The page itself only uses the public API.
 */
@Public()
@Controller()
export class ConsoleController {
  private readonly enabled: boolean;

  constructor(
    private readonly assets: ConsoleAssets,
    private readonly devToken: DevToken,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.enabled = config.getOrThrow<AppConfig>(APP_CONFIG_KEY).consoleEnabled;
  }

  @Get()
  page(@Res() response: Response): Promise<void> {
    return this.send(response, 'index.html');
  }

  @Get('console/assets/:name')
  asset(@Param('name') name: string, @Res() response: Response): Promise<void> {
    return this.send(response, name);
  }

  /**
   * The dev token, for the page to fill in its Token box: only while the secret was made at
   * boot (`AUTH_JWT_SECRET` unset, never in production) and only to a browser on this machine
   * that names it as localhost, with no proxy header (a reverse proxy on this machine is not
   * this machine's browser). Anyone else gets 404 and pastes a token.
   */
  @Get('console/dev-token')
  token(@Req() request: Request, @Res() response: Response): void {
    this.assertEnabled();
    if (!this.devToken.value || !isLoopbackRequest(request.socket.remoteAddress, request.headers)) {
      throw new NotFoundException({
        code: 'NO_DEV_TOKEN',
        message: 'no dev token here: paste a bearer token signed with AUTH_JWT_SECRET',
      });
    }
    response
      .set({ ...SECURITY_HEADERS, 'Cache-Control': 'no-store' })
      .json({ token: this.devToken.value, userId: DEV_USER });
  }

  private async send(response: Response, name: string): Promise<void> {
    this.assertEnabled();
    const asset = await this.assets.get(name);
    if (!asset) {
      throw new NotFoundException({
        code: 'NOT_FOUND',
        message: `no console file ${name}; the console is built into dist/console by npm run build`,
      });
    }
    response
      .set({ ...SECURITY_HEADERS, 'Content-Type': asset.contentType, 'Cache-Control': 'no-cache' })
      .send(asset.body);
  }

  private assertEnabled(): void {
    if (!this.enabled)
      throw new NotFoundException({
        code: 'NOT_FOUND',
        message: 'the console is off: set CONSOLE_ENABLED=true to serve it at /',
      });
  }
}
