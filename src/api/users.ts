import { emptyEnvelope } from './contract/envelope';
import {
  createUserResponse,
  deleteUserResponse,
  editUserResponse,
  listUsersResponse,
  userDetailsResponse,
  userTeamsResponse,
  type ConfirmEmailBody,
  type CreateUserBody,
  type EditUserBody,
  type ListUsersQuery,
  type ResetPasswordBody,
  type UserTeamsQuery,
} from './contract/users';
import { request } from './client';

export const listUsers = (query: ListUsersQuery) =>
  request('get', 'users/list', listUsersResponse, { searchParams: { ...query } }).then(
    (r) => r.data,
  );

export const getUserDetails = (id: number) =>
  request('get', `users/details/${id}`, userDetailsResponse).then((r) => r.data);

export const listUserTeams = (userId: number, query: UserTeamsQuery) =>
  request('get', `users/teams/${userId}`, userTeamsResponse, { searchParams: { ...query } }).then(
    (r) => r.data,
  );

/** Answers the server's message, 'Completed creating user: …'. */
export const createUser = (body: CreateUserBody) =>
  request('post', 'users/create', createUserResponse, { json: body });

export const editUser = (body: EditUserBody) =>
  request('post', 'users/edit', editUserResponse, { json: body });

export const deleteUser = (id: number) =>
  request('delete', `users/delete/${id}`, deleteUserResponse);

export const forgotPassword = (email: string) =>
  request('post', 'users/forgotPassword', emptyEnvelope, { json: { email } });

export const resetPasswordFromEmail = (token: string, body: ResetPasswordBody) =>
  request('post', `users/resetPasswordFromEmail/${encodeURIComponent(token)}`, emptyEnvelope, {
    json: body,
    suppressUnauthorized: true,
  });

export const confirmEmail = (token: string, body: ConfirmEmailBody) =>
  request('post', `users/confirmEmail/${encodeURIComponent(token)}`, emptyEnvelope, {
    json: body,
    suppressUnauthorized: true,
  });
