import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from 'dev-services';
import {
  brokenLinks,
  brokenLinksOf,
  headingAnchor,
  headingAnchors,
  markdownFilesIn,
} from './markdown-links';

describe('headingAnchor', () => {
  it("makes GitHub's anchors: lower case, punctuation dropped, spaces as dashes", () => {
    expect([
      headingAnchor('Metrics, alerts and a dashboard'),
      headingAnchor('Resumable client (`/client`)'),
      headingAnchor('The rolling-deployment proof'),
    ]).toEqual([
      'metrics-alerts-and-a-dashboard',
      'resumable-client-client',
      'the-rolling-deployment-proof',
    ]);
  });

  it('leaves out lines of code blocks that look like headings', () => {
    expect([...headingAnchors('# Title\n\n```bash\n# a comment\n```\n## Next')]).toEqual([
      'title',
      'next',
    ]);
  });
});

describe('brokenLinks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'md-links-'));
  writeFileSync(join(dir, 'other.md'), '# Other\n\n## A section\n');

  it('names a missing file, a missing heading, and nothing else', () => {
    const text = [
      '[ok](other.md) [ok](other.md#a-section) [ok](#here) [web](https://example.com/x.md)',
      '',
      '# Here',
      '[gone](missing.md) [no heading](other.md#nowhere)',
      '```',
      '[in code](missing.md)',
      '```',
    ].join('\n');
    expect(
      brokenLinks(join(dir, 'page.md'), text).map(({ line, target }) => `${line} ${target}`),
    ).toEqual(['4 missing.md', '4 other.md#nowhere']);
  });
});

describe("the repository's pages", () => {
  it("link only to files and headings that exist: the READMEs, docs/*.md and the library's docs/library/*.md", () => {
    const inDocs = (dir: string) =>
      markdownFilesIn(join(REPO_ROOT, dir), readdirSync(join(REPO_ROOT, dir)));
    const files = [
      join(REPO_ROOT, 'README.md'),
      join(REPO_ROOT, 'packages/nest-agent-graceful-shutdown/README.md'),
      ...inDocs('docs'),
      ...inDocs('docs/library'),
    ];
    expect(brokenLinksOf(files)).toEqual([]);
  });
});
