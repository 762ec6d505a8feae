import { useEffect, useMemo, useState } from 'preact/hooks';
import { createAuthFetch } from './api/auth-fetch';
import { ServiceApi } from './api/service-api';
import { TokenStore } from './api/token-store';
import { ApprovalBar } from './components/approval-bar';
import { Composer } from './components/composer';
import { ConnectionNotices } from './components/connection-notices';
import { Conversation } from './components/conversation';
import { RunSteps } from './components/run-steps';
import { ThreadList } from './components/thread-list';
import { TokenField } from './components/token-field';
import { useCurrentThread } from './hooks/use-current-thread';
import { useThreadList } from './hooks/use-thread-list';

/** The console: the token, the user's threads, and the selected thread's conversation, run and status. */
export function App() {
  const tokens = useMemo(() => new TokenStore(), []);
  const fetch = useMemo(() => createAuthFetch(tokens), [tokens]);
  const api = useMemo(() => new ServiceApi(fetch), [fetch]);
  const [token, setToken] = useState({ value: tokens.value, source: tokens.source });

  useEffect(() => {
    const unsubscribe = tokens.subscribe(() =>
      setToken({ value: tokens.value, source: tokens.source }),
    );
    void tokens.loadDevToken();
    return unsubscribe;
  }, [tokens]);

  const list = useThreadList(api, token.value);
  const thread = useCurrentThread(api, fetch, token.value, list.refresh);
  const { run } = thread;
  const awaitingAnswer = thread.status === 'awaiting_approval' && run.approvals.length > 0;

  return (
    <div class="layout">
      <header class="top">
        <h1>Agent console</h1>
        <TokenField
          token={token.value}
          source={token.source}
          onChange={(value) => tokens.set(value, 'typed')}
        />
      </header>
      <ThreadList
        threads={list.threads}
        selected={thread.threadId}
        onSelect={thread.select}
        onNew={thread.startNew}
      />
      <main class="thread-view">
        <div class="thread-head">
          <h2 class="thread-title">{thread.threadId}</h2>
          <p class="status-line">
            Status:{' '}
            <output class={`badge badge-${thread.status}`} aria-label="Status">
              {thread.status}
            </output>
          </p>
        </div>
        <ConnectionNotices notices={run.notices} reconnecting={run.reconnecting} />
        {thread.error ? (
          <p class="error" role="alert">
            {thread.error}
          </p>
        ) : null}
        <Conversation messages={thread.messages} />
        <RunSteps run={run} />
        {awaitingAnswer ? (
          <ApprovalBar
            approvals={run.approvals}
            toolCalls={run.toolCalls}
            busy={run.active}
            onAnswer={thread.answer}
          />
        ) : null}
        <Composer
          running={run.active}
          canSend={!awaitingAnswer && token.value !== ''}
          onSend={thread.send}
          onStop={thread.stop}
        />
      </main>
    </div>
  );
}
