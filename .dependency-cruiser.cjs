/**
 * The module graph's rules, checked by `npm run lint` (depcruise server src). Type-only imports
 * count: a cycle or an upward import of types still ties the modules together.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'Modules import each other in a cycle. Move what both need into a module of its own, or ' +
        'have the caller hand it in. Only the cycles through the generated route tree are allowed: ' +
        'the router and the root route import it and it imports them, by TanStack Router’s design.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { pathNot: '^src/routeTree\\.gen\\.ts$' } },
    },
    {
      name: 'db-imports-no-layer-above',
      comment:
        'server/db is the bottom layer: it imports only itself and the zod contract. The tables ' +
        'of the jobs and the drivers reach the client from server/schema.ts, through its caller.',
      severity: 'error',
      from: { path: '^server/db/' },
      to: { path: '^(server|src|scripts|test)/', pathNot: ['^server/db/', '^src/api/contract/'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve would leave a hole in the graph the rules read.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.server.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
};
