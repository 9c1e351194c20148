#!/usr/bin/env node
// The client is TypeScript run through the repository's tsx: nothing to build after `npm ci`, and
// it shares the API contract (src/api/contract) with the console and the server as source.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
