import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  limitMessages,
  putCompanyLimitsBody,
  putCompanyLimitsResponse,
} from '../../src/api/contract/limits';
import {
  createCustomerBody,
  createCustomerResponse,
  customerActivityQuery,
  customerActivityResponse,
  customerDetailsResponse,
  customerIdParam,
  listCustomersQuery,
  listCustomersResponse,
  resellerMessages,
  resumeCustomerResponse,
  suspendCustomerResponse,
} from '../../src/api/contract/reseller';
import { listCustomerActivity } from '../domain/reseller/customer-activity';
import { createCustomer } from '../domain/reseller/customer-create';
import { findCustomerDetails } from '../domain/reseller/customer-details';
import { saveCustomerLimits } from '../domain/reseller/customer-limits';
import { listCustomers } from '../domain/reseller/customer-list';
import { resumeCustomer, suspendCustomer } from '../domain/reseller/customer-suspension';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/**
 * The reseller's console: its customer companies. Only a reseller's staff may call these; anyone
 * else gets the 404 of a route that does not exist (`config.resellerOnly`, set on every route
 * here so that none can be added without it).
 */
export const resellerRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const { db } = deps;

  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, resellerOnly: true };
  });

  app.get(
    '/companies/list',
    { schema: { querystring: listCustomersQuery, response: { 200: listCustomersResponse } } },
    async (request) => {
      const page = await listCustomers(db, caller(request), request.query, deps.clock.now());
      return { data: page, message: 'OK' };
    },
  );

  app.get(
    '/companies/details/:id',
    { schema: { params: customerIdParam, response: { 200: customerDetailsResponse } } },
    async (request) => {
      const customer = await findCustomerDetails(
        db,
        caller(request),
        request.params.id,
        deps.clock.now(),
      );
      return { data: customer, message: 'OK' };
    },
  );

  app.post(
    '/companies/create',
    { schema: { body: createCustomerBody, response: { 200: createCustomerResponse } } },
    async (request) => {
      const companyId = await createCustomer(deps, caller(request), request.body);
      request.log.info({ companyId }, 'customer created');
      return { data: { companyId }, message: resellerMessages.customerCreated };
    },
  );

  app.post(
    '/companies/suspend/:id',
    { schema: { params: customerIdParam, response: { 200: suspendCustomerResponse } } },
    async (request) => {
      const companyId = request.params.id;
      await suspendCustomer(db, caller(request), companyId, deps.clock.now());
      // The stops of its running VMs are written: the reconciler takes them now.
      deps.jobs.nudge();
      request.log.info({ companyId }, 'customer suspended');
      return { data: null, message: resellerMessages.customerSuspended };
    },
  );

  app.post(
    '/companies/resume/:id',
    { schema: { params: customerIdParam, response: { 200: resumeCustomerResponse } } },
    async (request) => {
      const companyId = request.params.id;
      await resumeCustomer(db, caller(request), companyId, deps.clock.now());
      deps.jobs.nudge();
      request.log.info({ companyId }, 'customer resumed');
      return { data: null, message: resellerMessages.customerResumed };
    },
  );

  app.get(
    '/companies/activity/:id',
    {
      schema: {
        description:
          "The customer's activity, as its Admins read it at `GET /activity/list`: the same " +
          'query and answer.',
        params: customerIdParam,
        querystring: customerActivityQuery,
        response: { 200: customerActivityResponse },
      },
    },
    async (request) => {
      const page = await listCustomerActivity(
        db,
        caller(request),
        request.params.id,
        request.query,
      );
      return { data: page, message: 'OK' };
    },
  );

  app.put(
    '/companies/limits/:id',
    {
      schema: {
        params: customerIdParam,
        body: putCompanyLimitsBody,
        response: { 200: putCompanyLimitsResponse },
      },
    },
    async (request) => {
      const companyId = request.params.id;
      await saveCustomerLimits(db, caller(request), companyId, request.body, deps.clock.now());
      request.log.info({ companyId, limits: request.body.limits.length }, 'customer limits saved');
      return { data: null, message: limitMessages.saved };
    },
  );
};
