import 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API route, as the tests that hold each one to a rule read them. */
    apiRoutes: readonly ApiRoute[];
  }

  interface ApiRoute {
    /** `METHOD /path`, without the API prefix. */
    name: string;
    /** The full URL and method, as Fastify compiles the route. */
    url: string;
    method: string;
    /** The answer's schema by status code. */
    responses: Record<string, unknown>;
  }

  interface FastifyContextConfig {
    /**
     * Who may call the route. `public`: anyone. `pending`: a session whose one-time code is not
     * verified yet (the code check itself). `operator`: the `OPERATOR_TOKEN` bearer, never a user
     * session (the imports). Unset: a verified session, or a user's API token.
     */
    auth?: 'public' | 'pending' | 'operator';
    /** A public route that can still answer 401 (a sign-in refused): why, for the API document. */
    refusal?: string;
    /** A public route that can answer 403 (a suspended company's sign-in): why, for the document. */
    forbidden?: string;
    /**
     * The route also answers a user who must change their password before anything else (the
     * session check, the profile, the password change itself).
     */
    allowedDuringPasswordReset?: boolean;
    /**
     * The route also answers a user whose company requires an authenticator app or a passkey
     * they have not set up yet: setting one up.
     */
    allowedBeforeSecondFactor?: boolean;
    /** The route answers with the caller's profile: it is read with the session, in one query. */
    profile?: boolean;
    /**
     * Only a signed-in session may call it, never an API token: what would make, extend or end a
     * credential (tokens, the session's renewal, the password).
     */
    sessionOnly?: boolean;
    /** A read that hands out control of something (a console link): a `read` token may not call it. */
    grantsControl?: boolean;
    /**
     * The reseller's console: only a reseller's staff (`isReseller`) may call it; anyone else,
     * and a token narrowed to teams, gets the 404 of a route that does not exist.
     */
    resellerOnly?: boolean;
  }
}
