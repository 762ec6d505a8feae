import { BadRequestException, Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { ID_PATTERN } from 'nest-agent-graceful-shutdown';

/** Checks a thread or run id from the path or query; names the field when it is bad. */
@Injectable()
export class IdParamPipe implements PipeTransform<unknown, string | undefined> {
  constructor(private readonly optional = false) {}

  transform(value: unknown, metadata: ArgumentMetadata): string | undefined {
    if (value === undefined && this.optional) return undefined;
    if (typeof value !== 'string' || !ID_PATTERN.test(value)) {
      throw new BadRequestException({ code: 'INVALID_ID', message: `${metadata.data}: must match ${ID_PATTERN.source}` });
    }
    return value;
  }
}
