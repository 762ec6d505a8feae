import type { MessageView } from '../api/service-api';

/** One stored message, in words: what the user asked, what the model answered, what a tool returned. */
function Entry({ message }: { message: MessageView }) {
  switch (message.role) {
    case 'user':
      return <li class="msg msg-user">{message.content}</li>;
    case 'assistant':
      if (!message.content && message.toolCalls?.length) {
        const calls = message.toolCalls
          .map((call) => `${call.function.name}(${call.function.arguments})`)
          .join(', ');
        return <li class="msg msg-call">Calls {calls}</li>;
      }
      return <li class="msg msg-assistant">{message.content}</li>;
    case 'tool':
      return <li class="msg msg-tool">Tool result: {message.content}</li>;
    default:
      return <li class="msg msg-system">{message.content}</li>;
  }
}

/** The thread's stored history, in order. */
export function Conversation({ messages }: { messages: MessageView[] }) {
  return (
    <section class="conversation" aria-label="Conversation">
      {messages.length === 0 ? (
        <p class="hint">Nothing here yet.</p>
      ) : (
        <ol>
          {messages.map((message) => (
            <Entry key={message.id} message={message} />
          ))}
        </ol>
      )}
    </section>
  );
}
