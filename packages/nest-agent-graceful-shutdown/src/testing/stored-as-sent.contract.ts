/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { AgentMessage } from '../agent/agent-message.js';
import type { SessionStore, StartRunCommand } from '../contracts/session-store.interface.js';

/** What the stored-as-sent cases need from the enclosing contract: the store of the test. */
export interface StoredAsSentContext {
  store: SessionStore;
}

/** 128 characters, every class the id rule (`isValidId`) allows. */
const EDGE_ID = 'Az09._:-'.repeat(16);

/** 256 characters a user id (`isValidUserId`) may hold: an email, `|`, inner blanks, any script. */
const EDGE_USER = `auth0|ali ce@example.org/é漢👩‍👧\u200d~`.padEnd(256, 'u');

/** Text of every class the text rule (`isStorableText`) allows, U+0000 and lone surrogates aside. */
const EVERY_CLASS = [
  Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join(''),
  '\u007f\u0080\u009f\u00a0 ascii ~!@#$%^&*()_+`{}|[]\\:";\'<>?,./',
  'é e\u0301 ß Ω я 漢字 かな 한글 עברית العربية हिन्दी',
  '👩‍👩‍👧 🏳️‍🌈 \u{1f600} \u{10ffff} \u{10000}',
  '\u200b\u200d\u2028\u2029\ufeff\ufffd\ufffe\uffff\ue000',
  "'; DROP TABLE agent_threads; -- \\x00 \\u0000 %00",
].join('\n');

/**
 * Ids at the edge of the id rule, user ids of the user id rule and text of every class the text
 * rule allows are stored and read back equal, on every store: what the library admits is what a
 * client sees again, and a retry's ids compare equal to the stored ones.
 * Runs inside `describeSessionStoreContract`, against each store it is given.
 */
export function describeStoredAsSent(context: () => StoredAsSentContext): void {
  describe('values stored as sent', () => {
    it('keeps ids at the edge of the id rule and a user id at the edge of its rule as sent', async () => {
      const { store } = context();
      const user: AgentMessage = { id: EDGE_ID, role: 'user', content: 'hi' };
      const command: StartRunCommand = {
        threadId: EDGE_ID,
        ownerId: EDGE_USER,
        runKey: randomUUID(),
        runId: EDGE_ID,
        instanceId: 'instance-a',
        messages: [user],
      };
      await store.startRun(command);
      const target = {
        threadId: EDGE_ID,
        runId: EDGE_ID,
        runKey: command.runKey,
        iteration: 1,
        phase: 'acting' as const,
      };
      const assistant: AgentMessage = {
        id: `${EDGE_ID.slice(1)}a`,
        role: 'assistant',
        content: '',
        toolCalls: [{ id: EDGE_ID, name: 'search', arguments: '{}' }],
      };
      const tool: AgentMessage = {
        id: `${EDGE_ID.slice(1)}t`,
        role: 'tool',
        content: 'found',
        toolCallId: EDGE_ID,
      };
      await store.appendMessages(target, [assistant, tool]);

      expect(await store.findThread(EDGE_ID)).toMatchObject({
        threadId: EDGE_ID,
        ownerId: EDGE_USER,
      });
      expect(await store.findRun(EDGE_ID, EDGE_ID)).toMatchObject({ runId: EDGE_ID });
      const stored = await store.loadMessages(EDGE_ID);
      expect(stored).toMatchObject([user, assistant, tool]);
      const page = await store.listThreads({ ownerId: EDGE_USER, limit: 10 });
      expect(page.threads.map((thread) => thread.threadId)).toEqual([EDGE_ID]);
    });

    it('keeps text of every character class the text rule allows as sent, in every role', async () => {
      const { store } = context();
      const user: AgentMessage = { id: 'u1', role: 'user', content: EVERY_CLASS };
      const command: StartRunCommand = {
        threadId: 't-text',
        ownerId: 'alice',
        runKey: randomUUID(),
        runId: 'r1',
        instanceId: 'instance-a',
        messages: [user],
      };
      await store.startRun(command);
      const target = {
        threadId: 't-text',
        runId: 'r1',
        runKey: command.runKey,
        iteration: 1,
        phase: 'acting' as const,
      };
      const call = { id: 'c1', name: 'search', arguments: JSON.stringify({ q: EVERY_CLASS }) };
      const assistant: AgentMessage = {
        id: 'a1',
        role: 'assistant',
        content: EVERY_CLASS,
        toolCalls: [call],
      };
      const tool: AgentMessage = { id: 't1', role: 'tool', content: EVERY_CLASS, toolCallId: 'c1' };
      await store.appendMessages(target, [assistant, tool]);

      const stored = await store.loadMessages('t-text');
      expect(stored.map(({ id, role, content }) => ({ id, role, content }))).toEqual(
        [user, assistant, tool].map(({ id, role, content }) => ({ id, role, content })),
      );
      expect(stored[1].toolCalls).toEqual([call]);
    });
  });
}
