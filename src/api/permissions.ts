import {
  assignPermissionsResponse,
  listPermissionsResponse,
  type AssignPermissionsBody,
} from './contract/permissions';
import { request } from './client';

export const listTeamPermissions = (teamId: number) =>
  request('get', `permissions/list/${teamId}`, listPermissionsResponse).then((r) => r.data);

export const assignPermissions = (body: AssignPermissionsBody) =>
  request('post', 'permissions/assign', assignPermissionsResponse, { json: body });
