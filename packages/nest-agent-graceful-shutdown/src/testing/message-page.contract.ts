/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { AgentMessage } from '../agent/agent-message.js';
import type { SessionStore } from '../contracts/session-store.interface.js';
import type { StoredMessage } from '../contracts/session-records.js';

/** What the message-page cases need from the enclosing contract: the store of the test. */
export interface MessagePageContext {
  store: SessionStore;
}

/**
 * `SessionStore.loadMessagePage`: a thread's history, one keyset page at a time, in order.
 * Runs inside `describeSessionStoreContract`, against each store it is given.
 */
export function describeMessagePages(context: () => MessagePageContext): void {
  describe('loadMessagePage', () => {
    /** A thread holding `count` user messages, stored with its first run. */
    const threadOf = async (threadId: string, count: number): Promise<void> => {
      const messages: AgentMessage[] = Array.from({ length: count }, (_, i) => ({
        id: `${threadId}-m${i}`,
        role: 'user',
        content: `m${i}`,
      }));
      await context().store.startRun({
        threadId,
        ownerId: 'alice',
        runKey: randomUUID(),
        runId: `${threadId}-r1`,
        instanceId: 'instance-a',
        messages,
      });
    };

    /** Every page of `threadId`, `limit` at a time, following `nextAfterSeq` to the end. */
    const allPages = async (threadId: string, limit: number): Promise<StoredMessage[][]> => {
      const pages: StoredMessage[][] = [];
      let afterSeq: number | undefined;
      for (let guard = 0; guard < 100; guard++) {
        const page = await context().store.loadMessagePage({ threadId, limit, afterSeq });
        pages.push(page.messages);
        if (page.nextAfterSeq === null) return pages;
        afterSeq = page.nextAfterSeq;
      }
      throw new Error('loadMessagePage never returned a last page');
    };

    it('returns every message once, in order, across pages that end with no next position', async () => {
      await threadOf('paged', 7);

      const pages = await allPages('paged', 3);

      expect(pages.map((page) => page.map((m) => m.id))).toEqual([
        ['paged-m0', 'paged-m1', 'paged-m2'],
        ['paged-m3', 'paged-m4', 'paged-m5'],
        ['paged-m6'],
      ]);
    });

    it('ends on a full page when the history is a whole number of pages', async () => {
      await threadOf('even', 4);

      const pages = await allPages('even', 2);

      expect(pages.map((page) => page.length)).toEqual([2, 2]);
    });

    it('reads the same messages as loadMessages, fields included', async () => {
      await threadOf('same', 3);

      const page = await context().store.loadMessagePage({ threadId: 'same', limit: 10 });

      expect(page).toEqual({
        messages: await context().store.loadMessages('same'),
        nextAfterSeq: null,
      });
    });

    it('returns an empty last page for an unknown thread', async () => {
      await expect(
        context().store.loadMessagePage({ threadId: 'nobody', limit: 5 }),
      ).resolves.toEqual({ messages: [], nextAfterSeq: null });
    });
  });
}
