import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** A relative link of a Markdown file whose target file or heading does not exist. */
export interface BrokenLink {
  /** The file the link is in. */
  file: string;
  /** Its line, from 1. */
  line: number;
  /** The link as written: `docs/runs.md#resume`, `#limits`. */
  target: string;
}

/**
 * The anchor a heading gets on GitHub: lower case, punctuation dropped, spaces turned into dashes.
 *
 * @example
 * headingAnchor('Metrics, alerts and a dashboard'); // 'metrics-alerts-and-a-dashboard'
 */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The lines of `text` outside fenced code blocks, with their numbers from 1. */
function proseLines(text: string): { line: number; text: string }[] {
  let fenced = false;
  return text.split('\n').flatMap((line, index) => {
    if (line.startsWith('```')) fenced = !fenced;
    return fenced || line.startsWith('```') ? [] : [{ line: index + 1, text: line }];
  });
}

/** The anchors of every heading of a Markdown text (code blocks left out). */
export function headingAnchors(text: string): Set<string> {
  return new Set(
    proseLines(text).flatMap(({ text: line }) =>
      /^#{1,6} /.test(line) ? [headingAnchor(line.replace(/^#+ /, ''))] : [],
    ),
  );
}

/**
 * The relative links of `markdown` (a file's text, `file` its path) whose file is missing, or
 * whose `#anchor` names no heading of the Markdown file it points to. Links with a scheme
 * (`https:`, `mailto:`) are not checked.
 */
export function brokenLinks(file: string, markdown: string): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const own = headingAnchors(markdown);
  for (const { line, text } of proseLines(markdown)) {
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, anchor] = target.split('#', 2);
      if (!path) {
        if (!own.has(anchor)) broken.push({ file, line, target });
        continue;
      }
      const targetFile = resolve(dirname(file), path);
      const ok =
        existsSync(targetFile) &&
        (!anchor ||
          !targetFile.endsWith('.md') ||
          headingAnchors(readFileSync(targetFile, 'utf8')).has(anchor));
      if (!ok) broken.push({ file, line, target });
    }
  }
  return broken;
}

/** Reads each file and returns the broken relative links of all of them (see `brokenLinks`). */
export function brokenLinksOf(files: string[]): BrokenLink[] {
  return files.flatMap((file) => brokenLinks(file, readFileSync(file, 'utf8')));
}

/** Joins `dir` and the names of its `.md` files. */
export function markdownFilesIn(dir: string, names: string[]): string[] {
  return names.filter((name) => name.endsWith('.md')).map((name) => join(dir, name));
}
