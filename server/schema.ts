/**
 * Every table the app keeps, composed above the layers that own them: the database layer's own,
 * the jobs' and those of the drivers that keep state in the product's database. The database
 * client takes it from whoever connects (main.ts, the import CLI, the tests), so that server/db
 * imports no layer above it; drizzle-kit reads this module too, so a table left out of it would
 * be left out of the migrations as well.
 */
export * from './db/schema';
export * from './db/catalog-schema';
export * from './db/vm-schema';
export * from './db/network-schema';
export * from './db/support-schema';
export * from './db/list-counts-schema';
export * from './db/event-schema';
export * from './db/console-schema';
export * from './jobs/schema';
export * from './providers/sim/schema';
export * from './providers/libvirt/schema';
export * from './db/webhook-schema';
export * from './db/limit-schema';
export * from './db/self-service-schema';
