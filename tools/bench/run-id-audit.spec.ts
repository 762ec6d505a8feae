import { idSequenceProblem } from './run-id-audit';

describe('idSequenceProblem', () => {
  it('accepts ids 1..n in order', () => {
    expect(idSequenceProblem([1, 2, 3])).toBeUndefined();
  });

  it('names the first lost id', () => {
    expect(idSequenceProblem([1, 2, 4])).toBe('id 3 lost (got 4 after 2)');
  });

  it('names a repeated id', () => {
    expect(idSequenceProblem([1, 2, 2, 3])).toBe('id 2 repeated (after 2)');
  });

  it('reports a stream that started after id 1', () => {
    expect(idSequenceProblem([2, 3])).toBe('id 1 lost (got 2 after nothing)');
  });

  it('reports a stream with no event', () => {
    expect(idSequenceProblem([])).toBe('no event received');
  });
});
