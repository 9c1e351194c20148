import {
  rolesResponse,
  updateUserRoleForTeamResponse,
  type UpdateUserRoleForTeamBody,
} from './contract/roles';
import { request } from './client';

export const listRoles = () => request('get', 'roles/userRoles', rolesResponse).then((r) => r.data);

export const updateUserRoleForTeam = (body: UpdateUserRoleForTeamBody) =>
  request('post', 'roles/updateUserRoleForTeam', updateUserRoleForTeamResponse, { json: body });
