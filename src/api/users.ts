import { emptyEnvelope } from './contract/envelope';
import {
  listUsersResponse,
  type ConfirmEmailBody,
  type ListUsersQuery,
  type ResetPasswordBody,
} from './contract/users';
import { request } from './client';

export const listUsers = (query: ListUsersQuery) =>
  request('get', 'users/list', listUsersResponse, { searchParams: { ...query } }).then(
    (r) => r.data,
  );

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
