/**
 * Video-call providers: something that creates a meeting and returns its
 * URL. The built-in provider needs no network: its meetings are rooms that
 * exist as soon as someone opens their URL (as with Jitsi Meet), so a hard
 * to guess room name under the configured base URL is the whole meeting.
 * A provider with an API (creating meetings with the user's token) would
 * implement the same interface.
 */
import { randomBytes } from 'node:crypto';
import type { VideoCallConfig } from '../config.js';

export interface MeetingRequest {
  /** The organization's string id, so rooms of different organizations never meet. */
  realmStringId: string;
  userId: number;
}

export interface VideoCallProvider {
  readonly name: string;
  createMeeting(request: MeetingRequest): Promise<string>;
}

export class RoomUrlProvider implements VideoCallProvider {
  constructor(
    readonly name: string,
    private readonly baseUrl: string,
  ) {}

  async createMeeting(request: MeetingRequest): Promise<string> {
    const room = `${request.realmStringId}-${randomBytes(10).toString('hex')}`;
    return `${this.baseUrl}/${encodeURIComponent(room)}`;
  }
}

/** The configured provider, or null when the server has none. */
export function videoCallProvider(config: VideoCallConfig): VideoCallProvider | null {
  if (config.provider === null || config.baseUrl === null) return null;
  return new RoomUrlProvider(config.provider, config.baseUrl);
}
