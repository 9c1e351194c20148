import { listActivityResponse } from './contract/activity';
import {
  type ActivityActorType,
  type ActivityOutcome,
  type ActivitySubjectType,
} from './contract/search-values';
import { request } from './client';

/** What the console asks `GET /activity/list` for; dates as the URL carries them (YYYY-MM-DD). */
export interface ActivityQuery {
  page: number;
  rowsPerPage: number;
  search?: string;
  subjectType?: ActivitySubjectType;
  subjectId?: number;
  networkId?: number;
  actorType?: ActivityActorType;
  outcome?: ActivityOutcome;
  from?: string;
  to?: string;
}

export const listActivity = (query: ActivityQuery) =>
  request('get', 'activity/list', listActivityResponse, { searchParams: { ...query } }).then(
    (r) => r.data,
  );
