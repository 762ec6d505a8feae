import { HttpException } from '@nestjs/common';
import { bodyParserError } from './json-body.parser';

const answer = (error: object) => {
  const result = bodyParserError(error, '1mb', 'gzip');
  return result instanceof HttpException ? { status: result.getStatus(), ...(result.getResponse() as object) } : result;
};

describe('bodyParserError', () => {
  it('answers an encoding body-parser cannot decode with 415 UNSUPPORTED_CONTENT_ENCODING', () => {
    expect(answer({ type: 'encoding.unsupported', status: 415 })).toMatchObject({ status: 415, code: 'UNSUPPORTED_CONTENT_ENCODING' });
  });

  it.each(['Z_DATA_ERROR', 'Z_BUF_ERROR', 'ERR__ERROR_FORMAT_PADDING_2'])('answers a body that fails to decode (%s) with 400 INVALID_BODY', (code) => {
    expect(answer({ code, status: 400 })).toMatchObject({ status: 400, code: 'INVALID_BODY', message: 'body: does not decode as gzip' });
  });

  it('answers malformed JSON with 400 INVALID_JSON and a body that is too large with 413', () => {
    expect(answer({ type: 'entity.parse.failed', status: 400, message: 'Unexpected end' })).toMatchObject({ status: 400, code: 'INVALID_JSON' });
    expect(answer({ type: 'entity.too.large', status: 413 })).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers a body shorter than its Content-Length with 400 INVALID_BODY', () => {
    expect(answer({ type: 'request.size.invalid', status: 400 })).toMatchObject({ status: 400, code: 'INVALID_BODY' });
  });

  it('answers nothing to a body the client abandoned', () => {
    expect(answer({ type: 'request.aborted', status: 400 })).toBeUndefined();
  });

  it('passes on what is not the client’s doing', () => {
    const error = Object.assign(new Error('stream is not readable'), { type: 'stream.not.readable', status: 500 });
    expect(bodyParserError(error, '1mb', 'identity')).toBe(error);
  });
});
