// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { ApiError } from '../errors.js';
import { services } from '../services.js';
import { getRealm } from '../store/realm.js';
import { videoCallProvider } from '../video-calls/provider.js';

/**
 * POST /calls/videocall/create: Create a video call
 *
 * Parameters:
 * none.
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const createVideoCall: Handlers['createVideoCall'] = async (params, ctx) => {
  const { db, config } = services(ctx.request);
  const provider = videoCallProvider(config.videoCall);
  if (!provider) throw new ApiError('BAD_REQUEST', 'No video call provider is configured');
  if (!ctx.user.has_videocall_token) throw new ApiError('BAD_REQUEST', 'You have no video call provider token');
  const realm = await getRealm(db);
  if (!realm) throw new Error('the organization does not exist');
  return { url: await provider.createMeeting({ realmStringId: realm.string_id, userId: ctx.user.id }) };
};
