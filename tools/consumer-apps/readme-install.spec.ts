import { libraryReadmeInstallLines, readmeInstallLines } from './readme-install';

describe('readmeInstallLines', () => {
  const readme = [
    '# x',
    '## Install',
    '```bash',
    '# an ESM app:',
    'npm pkg set a=b',
    'npm install x',
    '```',
    '```bash',
    '# a CommonJS app:',
    'npm install y',
    '```',
    '## Next',
  ].join('\n');

  it("returns the npm lines of the install block whose comment names the app's kind", () => {
    expect(readmeInstallLines(readme, 'ESM')).toEqual(['npm pkg set a=b', 'npm install x']);
    expect(readmeInstallLines(readme, 'CommonJS')).toEqual(['npm install y']);
  });

  it('fails, naming the kind, when the README lost its block', () => {
    expect(() =>
      readmeInstallLines(readme.replace('# a CommonJS app:', '# another app:'), 'CommonJS'),
    ).toThrow(/"CommonJS"/);
  });

  it("finds an ESM and a CommonJS install line in the library's own README", () => {
    expect(
      libraryReadmeInstallLines('ESM').some((line) =>
        line.startsWith('npm install nest-agent-graceful-shutdown '),
      ),
    ).toBe(true);
    expect(
      libraryReadmeInstallLines('CommonJS').some((line) =>
        line.startsWith('npm install nest-agent-graceful-shutdown '),
      ),
    ).toBe(true);
  });
});
