import type { z } from './contract/zod';
import type { ActivityQuery } from './activity';
import { putCompanyLimitsResponse, type LimitEntry } from './contract/limits';
import {
  createCustomerResponse,
  customerActivityResponse,
  customerDetailsResponse,
  listCustomersResponse,
  resumeCustomerResponse,
  suspendCustomerResponse,
  type createCustomerBody,
  type listCustomersQuery,
} from './contract/reseller';
import { request } from './client';

/** The list's query as the console sends it (sort as a boolean; the wire makes it a string). */
export type CustomerListQuery = z.output<typeof listCustomersQuery>;

/** A new customer as the console sends it: the contract's parse of the form (trimmed, no blanks). */
export type NewCustomer = z.output<typeof createCustomerBody>;

/** The reseller's customer companies, a page at a time. */
export const listCustomers = (query: CustomerListQuery) =>
  request('get', 'reseller/companies/list', listCustomersResponse, {
    searchParams: { ...query },
  }).then((r) => r.data);

export const getCustomer = (id: number) =>
  request('get', `reseller/companies/details/${id}`, customerDetailsResponse).then((r) => r.data);

/** A new customer company and its first Admin (invited by e-mail); answers the company's id. */
export const createCustomer = (body: NewCustomer) =>
  request('post', 'reseller/companies/create', createCustomerResponse, { json: body }).then(
    (r) => r.data,
  );

/**
 * Stops the customer's running VMs, signs its users out and refuses its credentials until it is
 * resumed; answers the server's message.
 */
export const suspendCustomer = (id: number) =>
  request('post', `reseller/companies/suspend/${id}`, suspendCustomerResponse).then(
    (r) => r.message,
  );

/** Lets the customer's users back in and starts again the VMs that were running. */
export const resumeCustomer = (id: number) =>
  request('post', `reseller/companies/resume/${id}`, resumeCustomerResponse).then((r) => r.message);

/** Replaces the customer's whole set of limits (an empty one removes them all). */
export const updateCustomerLimits = (id: number, limits: LimitEntry[]) =>
  request('put', `reseller/companies/limits/${id}`, putCompanyLimitsResponse, {
    json: { limits },
  }).then((r) => r.message);

/** The customer's activity as its Admins see it (`GET /activity/list`'s query and answer). */
export const listCustomerActivity = (id: number, query: ActivityQuery) =>
  request('get', `reseller/companies/activity/${id}`, customerActivityResponse, {
    searchParams: { ...query },
  }).then((r) => r.data);
