import {
  createTeamResponse,
  listTeamsResponse,
  teamActionResponse,
  teamDetailsResponse,
  type AddTeamUserBody,
  type CreateTeamBody,
  type ListTeamsQuery,
  type RemoveTeamUserBody,
  type TeamDetailsQuery,
  type UpdateTeamBody,
} from './contract/teams';
import { request } from './client';

export const listTeams = (query: ListTeamsQuery) =>
  request('get', 'teams/list', listTeamsResponse, { searchParams: { ...query } }).then(
    (r) => r.data,
  );

export const getTeam = (id: number, query: TeamDetailsQuery) =>
  request('get', `teams/${id}`, teamDetailsResponse, { searchParams: { ...query } }).then(
    (r) => r.data,
  );

export const createTeam = (body: CreateTeamBody) =>
  request('post', 'teams/create', createTeamResponse, { json: body }).then((r) => r.data);

export const updateTeam = (body: UpdateTeamBody) =>
  request('post', 'teams/update', teamActionResponse, { json: body });

export const addTeamUser = (body: AddTeamUserBody) =>
  request('post', 'teams/addUser', teamActionResponse, { json: body });

export const removeTeamUser = (body: RemoveTeamUserBody) =>
  request('delete', 'teams/removeUser', teamActionResponse, { json: body });

export const deleteTeam = (teamId: number) =>
  request('delete', 'teams/delete', teamActionResponse, { json: { teamId } });
