import Fastify from 'fastify';

/** The ceiling of any answer on this machine: Fastify with one route and nothing else. */
const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
