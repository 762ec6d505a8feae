import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OLDEST_PEERS } from './oldest-peers';
import { REPO_ROOT } from './repo-root';

/** The lowest version a range admits, for the range forms the library uses: `^a.b.c || ^x…` and `>=a.b.c <x…`. */
function floorOf(range: string): string {
  const first = range.split('||')[0].trim();
  return first.replace(/^(\^|~|>=)/, '').split(/\s/)[0];
}

describe('OLDEST_PEERS', () => {
  const { peerDependencies } = JSON.parse(
    readFileSync(join(REPO_ROOT, 'packages/nest-agent-graceful-shutdown/package.json'), 'utf8'),
  ) as {
    peerDependencies: Record<string, string>;
  };

  it("names the floor of every one of the library's peer ranges, so the oldest-peers run tests the bottom of each", () => {
    const floors = Object.fromEntries(
      Object.entries(peerDependencies).map(([name, range]) => [name, floorOf(range)]),
    );
    const chosen = Object.fromEntries(
      Object.keys(peerDependencies).map((name) => [name, OLDEST_PEERS[name]]),
    );
    expect(chosen).toEqual(floors);
  });
});
