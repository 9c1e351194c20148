import {
  deleteAllSessionsResponse,
  deleteOtherSessionsResponse,
  deleteSessionResponse,
  listSessionsResponse,
} from './contract/sessions';
import { request } from './client';

/** The signed-in user's own sessions, this one marked `current`. */
export const listSessions = () =>
  request('get', 'sessions/list', listSessionsResponse).then((r) => r.data);

export const deleteSession = (id: number) =>
  request('delete', `sessions/delete/${id}`, deleteSessionResponse);

/** Ends every session of the user but this one. */
export const deleteOtherSessions = () =>
  request('post', 'sessions/deleteOthers', deleteOtherSessionsResponse);

/** An Admin ends every session of a user of the company. */
export const deleteAllSessions = (userId: number) =>
  request('post', `sessions/deleteAll/${userId}`, deleteAllSessionsResponse);
