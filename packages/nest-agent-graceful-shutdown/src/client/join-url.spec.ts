import { defaultJoinUrl } from './join-url.js';

describe('defaultJoinUrl', () => {
  it('appends /{threadId}/stream to the POST URL and names the run in the query', () => {
    expect(defaultJoinUrl('https://agents.example.com/v1/runs')('t-1', 'r-1')).toBe(
      'https://agents.example.com/v1/runs/t-1/stream?runId=r-1',
    );
  });

  it('keeps the query of the POST URL and escapes the thread id', () => {
    expect(defaultJoinUrl('http://host:8080/api/v1/runs/?tenant=a')('t 1', 'r-1')).toBe(
      'http://host:8080/api/v1/runs/t%201/stream?tenant=a&runId=r-1',
    );
  });
});
