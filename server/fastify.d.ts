import 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call the route. `public`: anyone. `pending`: a session whose one-time code is not
     * verified yet (the code check itself). Unset: a verified session.
     */
    auth?: 'public' | 'pending';
  }
}
