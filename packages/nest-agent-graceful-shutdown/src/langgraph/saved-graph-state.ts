import type { BaseCheckpointSaver, Checkpoint, CheckpointMetadata } from '@langchain/langgraph';

type Serde = BaseCheckpointSaver['serde'];

/** The latest checkpoint of one graph namespace, with the writes of its next step so far. */
export interface GraphEntry {
  checkpoint: Checkpoint;
  metadata: CheckpointMetadata;
  parentId?: string;
  writes: Array<[string, string, unknown]>;
}

/** One value as LangGraph's serializer wrote it: its type and text (base64 unless JSON). */
interface Encoded {
  type: string;
  data: string;
}

/** What the thread keeps of a graph between runs (the root's messages channel aside). */
interface SavedGraphState {
  langgraph: 1;
  /** The graph's state channels when it was saved: what a later release's fit check compares with. */
  channels?: string[];
  namespaces: Record<
    string,
    { checkpoint: Encoded; metadata: Encoded; parentId?: string; writes: Encoded }
  >;
}

/** The graph's checkpoints as framework state, through LangGraph's own serializer. */
export async function encodeGraphState(
  serde: Serde,
  entries: ReadonlyMap<string, GraphEntry>,
  channels?: readonly string[],
): Promise<SavedGraphState> {
  const namespaces: SavedGraphState['namespaces'] = {};
  for (const [ns, entry] of entries) {
    namespaces[ns] = {
      checkpoint: await encode(serde, entry.checkpoint),
      metadata: await encode(serde, entry.metadata),
      ...(entry.parentId ? { parentId: entry.parentId } : {}),
      writes: await encode(serde, entry.writes),
    };
  }
  return { langgraph: 1, ...(channels ? { channels: [...channels] } : {}), namespaces };
}

/** The state channels a saved graph state was written with; undefined when it did not record them. */
export function savedChannelsOf(state: unknown): string[] | undefined {
  return isSavedGraphState(state) && Array.isArray(state.channels) ? state.channels : undefined;
}

/** The checkpoints a run of the thread saved; none when the state is not a graph's (a new thread, another framework). */
export async function decodeGraphState(
  serde: Serde,
  state: unknown,
): Promise<Map<string, GraphEntry>> {
  const entries = new Map<string, GraphEntry>();
  if (!isSavedGraphState(state)) return entries;
  for (const [ns, saved] of Object.entries(state.namespaces)) {
    entries.set(ns, {
      checkpoint: (await decode(serde, saved.checkpoint)) as Checkpoint,
      metadata: (await decode(serde, saved.metadata)) as CheckpointMetadata,
      ...(saved.parentId ? { parentId: saved.parentId } : {}),
      writes: (await decode(serde, saved.writes)) as GraphEntry['writes'],
    });
  }
  return entries;
}

/** Whether `state` is a graph state as the adapter saves it (`{ langgraph: 1, namespaces }`). */
export function isSavedGraphState(state: unknown): state is SavedGraphState {
  return (
    typeof state === 'object' &&
    state !== null &&
    (state as SavedGraphState).langgraph === 1 &&
    typeof (state as SavedGraphState).namespaces === 'object'
  );
}

async function encode(serde: Serde, value: unknown): Promise<Encoded> {
  const [type, bytes] = await serde.dumpsTyped(value);
  const buffer = Buffer.from(bytes);
  return { type, data: type === 'json' ? buffer.toString('utf8') : buffer.toString('base64') };
}

function decode(serde: Serde, encoded: Encoded): Promise<unknown> {
  return serde.loadsTyped(
    encoded.type,
    encoded.type === 'json' ? encoded.data : Buffer.from(encoded.data, 'base64'),
  );
}
