import {
  BadRequestException,
  Injectable,
  type ArgumentMetadata,
  type PipeTransform,
} from '@nestjs/common';
import { ID_RULE, isValidId } from 'nest-agent-graceful-shutdown';

/** Checks a thread or run id from the path or query (`isValidId`: not `.` or `..` either); names the field when it is bad. */
@Injectable()
export class IdParamPipe implements PipeTransform<unknown, string | undefined> {
  constructor(private readonly optional = false) {}

  transform(value: unknown, metadata: ArgumentMetadata): string | undefined {
    if (value === undefined && this.optional) return undefined;
    if (typeof value !== 'string' || !isValidId(value)) {
      throw new BadRequestException({
        code: 'INVALID_ID',
        message: `${metadata.data}: ${ID_RULE}`,
      });
    }
    return value;
  }
}
