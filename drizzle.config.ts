import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './server/db/schema.ts',
    './server/db/catalog-schema.ts',
    './server/db/vm-schema.ts',
    './server/db/network-schema.ts',
    './server/db/support-schema.ts',
    './server/db/list-counts-schema.ts',
    './server/db/event-schema.ts',
    './server/db/console-schema.ts',
    './server/jobs/schema.ts',
    './server/providers/sim/schema.ts',
    './server/providers/libvirt/schema.ts',
  ],
  out: './server/db/migrations',
});
