/**
 * The example organization of docs/decisions/0002-example-organization.md:
 * the same ids, names and contents the spec examples use.
 */
import type { CustomProfileFieldType, Role } from '../store/rows.js';

export const ORGANIZATION = {
  name: 'Lakeside Labs',
  stringId: 'lakeside',
  description: 'Where the Lakeside Labs team builds and ships.',
  emptyTopicDisplayName: 'general chat',
  domain: 'example.com',
  moderationChannelId: 5,
} as const;

export interface DemoUser {
  id: number;
  email: string;
  fullName: string;
  role: Role;
  timezone: string;
  bot?: { type: 'generic' | 'system'; ownerId: number | null };
  /** Holds a video-call provider token (everyone but the guest, to show both cases). */
  videocall: boolean;
}

export const USERS: DemoUser[] = [
  { id: 1, email: 'notification-bot@example.com', fullName: 'Notification Bot', role: 400, timezone: '', bot: { type: 'system', ownerId: null }, videocall: false },
  { id: 2, email: 'owner@example.com', fullName: 'Ada Okafor', role: 100, timezone: 'Europe/London', videocall: true },
  { id: 3, email: 'admin@example.com', fullName: 'Ben Alvarez', role: 200, timezone: 'America/New_York', videocall: true },
  { id: 4, email: 'moderator@example.com', fullName: 'Chen Wei', role: 300, timezone: 'Asia/Shanghai', videocall: true },
  { id: 5, email: 'member@example.com', fullName: 'Dana Kim', role: 400, timezone: 'America/Los_Angeles', videocall: true },
  { id: 6, email: 'guest@example.com', fullName: 'Eli Novak', role: 600, timezone: 'Europe/Prague', videocall: false },
  { id: 7, email: 'deploy-bot@example.com', fullName: 'Deploy Bot', role: 400, timezone: '', bot: { type: 'generic', ownerId: 2 }, videocall: false },
];

export const USER = { notificationBot: 1, ada: 2, ben: 3, chen: 4, dana: 5, eli: 6, deployBot: 7 } as const;

/** System groups, outermost first; each contains the next one as its subgroup, except role:nobody. */
export const SYSTEM_GROUP_IDS = {
  'role:internet': 1,
  'role:everyone': 2,
  'role:members': 3,
  'role:fullmembers': 4,
  'role:moderators': 5,
  'role:administrators': 6,
  'role:owners': 7,
  'role:nobody': 8,
} as const;
export const GROUP = { ...SYSTEM_GROUP_IDS, backend: 9, frontend: 10, engineering: 11 } as const;

export const CUSTOM_GROUPS = [
  { id: 9, name: 'backend', description: 'Server and database work', members: [USER.ben, USER.dana], subgroups: [] },
  { id: 10, name: 'frontend', description: 'Web and mobile clients', members: [USER.chen], subgroups: [] },
  { id: 11, name: 'engineering', description: 'Everyone who ships code', members: [], subgroups: [9, 10] },
];

export const FOLDERS = [
  { id: 1, name: 'Product', description: 'Channels about what we build', isArchived: false },
  { id: 2, name: 'Archive', description: 'Finished projects', isArchived: true },
];

export const CHANNEL = { general: 1, engineering: 2, design: 3, announcements: 4, moderation: 5, archive2024: 6 } as const;

export const CHANNELS = [
  { id: 1, name: 'general', description: 'Everything else', isDefault: true, subscribers: [2, 3, 4, 5, 6, 7] },
  { id: 2, name: 'engineering', description: 'Builds, deploys and **code review**', folderId: 1, subscribers: [2, 3, 4, 5, 7] },
  { id: 3, name: 'design', description: 'Mock-ups and critique', isPrivate: true, folderId: 1, subscribers: [2, 4] },
  { id: 4, name: 'announcements', description: 'News for everyone, readable without an account', isWebPublic: true, subscribers: [2, 3, 4, 5, 6] },
  { id: 5, name: 'moderation', description: 'Reports of messages that need a moderator', isPrivate: true, subscribers: [2, 3, 4] },
  { id: 6, name: 'archive-2024', description: 'Last year', isArchived: true, folderId: 2, subscribers: [2, 3] },
] as const;

/** Rendered forms are what the server's markdown rendering produces for these texts. */
export const RENDERED_DESCRIPTIONS: Record<number, string> = {
  1: '<p>Everything else</p>',
  2: '<p>Builds, deploys and <strong>code review</strong></p>',
  3: '<p>Mock-ups and critique</p>',
  4: '<p>News for everyone, readable without an account</p>',
  5: '<p>Reports of messages that need a moderator</p>',
  6: '<p>Last year</p>',
};

export const LINKIFIER = {
  id: 1,
  pattern: '#(?P<id>[0-9]+)',
  urlTemplate: 'https://github.com/lakeside/app/issues/{id}',
  exampleInput: '#42',
  reverseTemplate: '#{id}',
};

export const PLAYGROUND = { id: 1, name: 'Python playground', pygmentsLanguage: 'python', urlTemplate: 'https://play.example.com/python?code={code}' };

export const PROFILE_FIELDS: { id: number; name: string; type: CustomProfileFieldType; hint: string }[] = [
  { id: 1, name: 'Phone', type: 'short_text', hint: 'Work phone number' },
  { id: 2, name: 'Website', type: 'url', hint: 'Personal or team page' },
  { id: 3, name: 'Mentor', type: 'users', hint: 'Who to ask first' },
  { id: 4, name: 'Biography', type: 'long_text', hint: 'A few words about yourself' },
];

export const PROFILE_VALUES = [
  { userId: USER.ada, fieldId: 1, value: '+1 555 0100', rendered: null },
  { userId: USER.ada, fieldId: 2, value: 'https://ada.example.com', rendered: null },
  { userId: USER.dana, fieldId: 1, value: '+1 555 0105', rendered: null },
  { userId: USER.dana, fieldId: 3, value: '[4]', rendered: null },
  { userId: USER.dana, fieldId: 4, value: 'Backend engineer. Ask me about **deploys**.', rendered: '<p>Backend engineer. Ask me about <strong>deploys</strong>.</p>' },
];

export const CUSTOM_EMOJI = { id: 1, name: 'octopus_ship', authorId: USER.ada, fileName: 'octopus_ship.png' };

const ISSUE_42 = '<a href="https://github.com/lakeside/app/issues/42">#42</a>';

/** `minutesAgo` places each message before the seeding time, in id order. */
export const MESSAGES = {
  deployDone: {
    id: 101,
    senderId: USER.dana,
    minutesAgo: 90,
    original: { content: 'Deploy of v2.3 is done.', rendered: '<p>Deploy of v2.3 is done.</p>' },
    edited: { content: 'Deploy of **v2.3** is done. See #42.', rendered: `<p>Deploy of <strong>v2.3</strong> is done. See ${ISSUE_42}.</p>` },
    editedMinutesAgo: 85,
  },
  thanks: { id: 102, senderId: USER.ben, minutesAgo: 80, content: 'Thanks! Rolling back the cache change.', rendered: '<p>Thanks! Rolling back the cache change.</p>' },
  flakyTest: { id: 103, senderId: USER.chen, minutesAgo: 70, content: 'Anyone seen the flaky test?', rendered: '<p>Anyone seen the flaky test?</p>', fromTopic: 'ci', movedMinutesAgo: 65 },
  lunch: { id: 104, senderId: USER.dana, minutesAgo: 60, content: 'Lunch?', rendered: '<p>Lunch?</p>' },
  review: { id: 105, senderId: USER.ben, minutesAgo: 50, content: 'Can you review my PR?', rendered: '<p>Can you review my PR?</p>' },
} as const;

export const TADA = { emojiName: 'tada', emojiCode: '1f389', reactionType: 'unicode_emoji' } as const;

export const SCHEDULED_MESSAGE = {
  id: 21,
  senderId: USER.dana,
  topic: 'deploys',
  content: 'Deploy freeze starts tomorrow at 18:00 UTC.',
  rendered: '<p>Deploy freeze starts tomorrow at 18:00 UTC.</p>',
  hoursAhead: 24,
};

export const REMINDER = { id: 31, userId: USER.dana, messageId: 102, hoursAhead: 2, note: 'Check the rollback finished' };

export const STATUS = { userId: USER.dana, statusText: 'Reviewing PRs', emojiName: 'eyes', emojiCode: '1f440' };
