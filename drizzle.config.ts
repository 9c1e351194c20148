import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Every table of the app, composed in one module: the one the server hands its database client.
  schema: './server/schema.ts',
  out: './server/db/migrations',
});
