import { createHash } from 'node:crypto';
import type { AgentShape } from '../agent/agent-release.js';

/**
 * The fingerprint of what a resume depends on: a hash of the agent's shape in a canonical form
 * (tools by name, object keys sorted, the order of nodes and channels ignored), so the same
 * agent code gives the same fingerprint on every instance and in every release.
 */
export function agentFingerprint(shape: AgentShape | undefined): string {
  const tools = [...(shape?.tools ?? [])].sort((a, b) => compare(a.name, b.name));
  const graph = shape?.graph && {
    nodes: [...shape.graph.nodes].sort(compare),
    channels: [...shape.graph.channels].sort(compare),
  };
  const canonical = canonicalJson({
    tools: tools.map(({ name, inputSchema }) => ({ name, inputSchema })),
    graph: graph ?? null,
  });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** JSON with every object's keys sorted; `undefined` members dropped as `JSON.stringify` does. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (!member || typeof member !== 'object' || Array.isArray(member)) return member;
    const entries = Object.entries(member as Record<string, unknown>).sort(([a], [b]) =>
      compare(a, b),
    );
    return Object.fromEntries(entries);
  });
}
