import {
  createSshKeyResponse,
  deleteSshKeyResponse,
  listSshKeysResponse,
  type CreateSshKeyBody,
} from './contract/ssh-keys';
import { request } from './client';

/** The signed-in user's own SSH keys, newest first. */
export const listSshKeys = () =>
  request('get', 'sshKeys/list', listSshKeysResponse).then((r) => r.data);

export const createSshKey = (body: CreateSshKeyBody) =>
  request('post', 'sshKeys/create', createSshKeyResponse, { json: body });

export const deleteSshKey = (id: number) =>
  request('delete', `sshKeys/delete/${id}`, deleteSshKeyResponse);
