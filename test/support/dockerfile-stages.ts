/** One Dockerfile instruction: its keyword in upper case and its argument text, continuations joined. */
export interface DockerInstruction {
  keyword: string;
  args: string;
}

/** A build stage: its FROM image, its `AS` name, and its instructions after FROM. */
export interface DockerStage {
  image: string;
  name?: string;
  instructions: DockerInstruction[];
}

/**
 * The stages of a Dockerfile, for structural checks (syntax is checked by dockerfile-utils).
 * Handles comments, blank lines and backslash continuations; not heredocs or a custom escape.
 */
export function dockerStages(text: string): DockerStage[] {
  const instructions: DockerInstruction[] = [];
  let pending = '';
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line.startsWith('#')) continue; // comment lines may sit inside a continuation too
    if (line === '' && pending === '') continue;
    const continued = line.endsWith('\\');
    pending += `${continued ? line.slice(0, -1) : line} `;
    if (continued) continue;
    const match = /^(\S+)\s*(.*)$/.exec(pending.trim());
    if (match)
      instructions.push({
        keyword: match[1].toUpperCase(),
        args: match[2].replace(/\s+/g, ' ').trim(),
      });
    pending = '';
  }
  const stages: DockerStage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [image, as, name] = instruction.args
        .split(' ')
        .filter((word) => !word.startsWith('--'));
      stages.push({ image, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(instruction);
    } else if (instruction.keyword !== 'ARG') {
      throw new Error(`${instruction.keyword} before the first FROM`);
    }
  }
  return stages;
}

/** The arguments of an exec-form instruction (`["a", "b"]`), or undefined for the shell form. */
export function execForm(instruction: DockerInstruction | undefined): string[] | undefined {
  if (!instruction?.args.startsWith('[')) return undefined;
  const parsed: unknown = JSON.parse(instruction.args);
  return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string')
    ? parsed
    : undefined;
}

/** The last instruction of `keyword` in a stage (the one that takes effect). */
export function lastInstruction(
  stage: DockerStage,
  keyword: string,
): DockerInstruction | undefined {
  return stage.instructions.filter((instruction) => instruction.keyword === keyword).at(-1);
}
