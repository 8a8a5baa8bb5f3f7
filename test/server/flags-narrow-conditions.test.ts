/**
 * readsMessages tells a narrow's condition that reads only the caller's
 * copies (looked up message by message on both databases, server/docs/narrow-ranges.md)
 * from one that reads messages' columns. Conditions as narrowCondition
 * writes them for each operator.
 */
import { describe, expect, it } from 'vitest';
import { readsMessages } from '../../server/domain/narrow.js';

const cases: [string, { condition: string; want: boolean }][] = [
  ['no narrow', { condition: 'true', want: false }],
  ['is:unread', { condition: `(NOT ('read' = ANY (um.flags)))`, want: false }],
  ['is:starred, negated', { condition: `NOT ('starred' = ANY (um.flags))`, want: false }],
  ['is:mentioned', { condition: `(um.flags && $3::text[])`, want: false }],
  ['is:dm', { condition: `(m.type = 'private')`, want: true }],
  ['channel', { condition: `COALESCE((m.channel_id = $3), false)`, want: true }],
  ['topic', { condition: `COALESCE((m.type = 'stream' AND lower(m.topic) = lower($3)), false)`, want: true }],
  ['sender', { condition: `COALESCE((m.sender_id = $3), false)`, want: true }],
  ['id', { condition: `COALESCE((m.id = $3), false)`, want: true }],
  ['is:unread and a channel', { condition: `(NOT ('read' = ANY (um.flags))) AND COALESCE((m.channel_id = $3), false)`, want: true }],
  ['two flag terms', { condition: `(NOT ('read' = ANY (um.flags))) AND NOT ('starred' = ANY (um.flags))`, want: false }],
];

describe('readsMessages', () => {
  it.each(cases)('%s', (_name, { condition, want }) => {
    expect(readsMessages(condition)).toBe(want);
  });
});
