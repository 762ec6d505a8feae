import type { ThreadListItemView } from '../api/service-api';

/** The caller's threads, most recently active first, each with its status; one is selected. */
export function ThreadList(props: {
  threads: ThreadListItemView[];
  selected: string;
  onSelect: (threadId: string) => void;
  onNew: () => void;
}) {
  return (
    <nav class="threads" aria-label="Threads">
      <div class="threads-head">
        <h2>Threads</h2>
        <button type="button" onClick={props.onNew}>
          New thread
        </button>
      </div>
      {props.threads.length === 0 ? (
        <p class="hint">No threads yet: send a message to start one.</p>
      ) : (
        <ul>
          {props.threads.map((thread) => (
            <li key={thread.threadId}>
              <button
                type="button"
                class="thread"
                aria-current={thread.threadId === props.selected ? 'true' : undefined}
                onClick={() => props.onSelect(thread.threadId)}
              >
                <span class="thread-id">{thread.threadId}</span>
                <span class={`badge badge-${thread.status}`}>{thread.status}</span>
                <span class="thread-meta">
                  {thread.messageCount} messages · {new Date(thread.updatedAt).toLocaleTimeString()}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
