import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** The authenticated user's id: the bearer token's `sub`. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  return context.switchToHttp().getRequest<{ userId: string }>().userId;
});
