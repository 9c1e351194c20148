import type { z } from './contract/zod';
import {
  createCustomerResponse,
  customerDetailsResponse,
  listCustomersResponse,
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
