import 'reflect-metadata';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Injectable,
  Module,
  Post,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { JwtModule, JwtService } from '@nestjs/jwt';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { IncomingMessage } from 'node:http';

/**
 * Child process of `BodyPeer`: a minimal Nest application as Nest's defaults make it, the peer
 * of request-cost section (m). `PORT` and `AUTH_JWT_SECRET` come from the environment. Its JSON
 * body parser (Express middleware, 1 MB) runs before its guard, which refuses any request
 * without a valid HS256 bearer token, as the reference service checks it.
 */
@Injectable()
class BearerGuard implements CanActivate {
  constructor(private readonly jwt: JwtService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const header = context.switchToHttp().getRequest<IncomingMessage>().headers.authorization ?? '';
    const token = /^Bearer (\S+)$/i.exec(header)?.[1];
    if (!token) throw new UnauthorizedException();
    try {
      await this.jwt.verifyAsync(token, { algorithms: ['HS256'] });
    } catch {
      throw new UnauthorizedException();
    }
    return true;
  }
}

@Controller('v1')
class PeerController {
  @Post('runs')
  @HttpCode(202)
  run(@Body() body: unknown): { accepted: boolean } {
    return { accepted: body !== undefined };
  }

  @Get('threads')
  threads(): { threads: never[] } {
    return { threads: [] };
  }
}

@Module({
  imports: [JwtModule.register({ secret: process.env.AUTH_JWT_SECRET })],
  controllers: [PeerController],
  providers: [{ provide: APP_GUARD, useClass: BearerGuard }],
})
class PeerModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(PeerModule, { logger: false });
  app.useBodyParser('json', { limit: '1mb' });
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
