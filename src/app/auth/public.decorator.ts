import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'auth:public';

/** Marks a route that needs no bearer token (health probes). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
