/** One line of `CLUSTER NODES`: a node's port, flags (`master`, `slave`, `fail`…) and slot ranges. */
export interface ClusterNodeLine {
  port: number;
  flags: string[];
  slots: string[];
}

/** The lines of a `CLUSTER NODES` reply. */
export function parseClusterNodes(text: string): ClusterNodeLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const [, address, flags, , , , , , ...slots] = line.trim().split(' ');
      return { port: Number(/:(\d+)@/.exec(address)?.[1]), flags: flags.split(','), slots };
    });
}

/** Whether the node is failing, or suspected to (`fail?`). */
export function isFailing(node: ClusterNodeLine): boolean {
  return node.flags.includes('fail') || node.flags.includes('fail?');
}

/** Whether both nodes serve the same slots, and some. */
export function sameSlots(node: ClusterNodeLine, other: ClusterNodeLine): boolean {
  return node.slots.length > 0 && node.slots.join(' ') === other.slots.join(' ');
}

/** Whether the node serves `slot` (a slot being migrated excluded). */
export function servesSlot(node: ClusterNodeLine, slot: number): boolean {
  return node.slots.some((range) => {
    if (range.startsWith('[')) return false;
    const [from, to = from] = range.split('-').map(Number);
    return slot >= from && slot <= to;
  });
}
