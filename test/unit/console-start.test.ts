import { describe, expect, it } from 'vitest';
import { START_MODULE, startFiles } from '../../scripts/build/console-start';
import { screenFiles } from '../../scripts/build/first-screen-preload';
import { bundleOf, chunk } from './support/build-chunks';

describe("the console's start, as the page names it", () => {
  // As the build makes it: the entry imports the start's facade, which re-exports it from the
  // chunk of its group; that chunk imports what the entry has already loaded.
  const entry = chunk('assets/initial.js', {
    facade: '/repo/index.html',
    entry: true,
    imports: ['assets/runtime.js'],
    dynamicImports: ['assets/start-facade.js'],
  });
  const bundle = bundleOf(
    entry,
    chunk('assets/runtime.js'),
    chunk('assets/start-facade.js', {
      facade: START_MODULE,
      entry: true,
      imports: ['assets/start.js'],
    }),
    chunk('assets/start.js', {
      imports: ['assets/initial.js', 'assets/runtime.js'],
      css: ['assets/start.css'],
    }),
    chunk('assets/app.js', { imports: ['assets/start.js'], css: ['assets/app.css'] }),
    chunk('assets/vms.js', {
      facade: '/repo/src/routes/_app/virtualMachines.tsx?tsr-split=component---loader',
      imports: ['assets/app.js', 'assets/start.js'],
    }),
  );

  it("is the start's own chunk and what it imports, without what the entry loads", () => {
    expect(startFiles(bundle, entry).map((file) => file.fileName)).toEqual([
      'assets/start-facade.js',
      'assets/start.js',
    ]);
  });

  it("leaves the start's files out of a screen's own", () => {
    expect(new Map(screenFiles(bundle)).get('^/virtualMachines/?$')).toEqual([
      'assets/vms.js',
      'assets/app.js',
      'assets/app.css',
    ]);
  });

  it('fails the build when no chunk starts the console', () => {
    const { 'assets/start-facade.js': _, ...without } = bundle;
    expect(() => startFiles(without, entry)).toThrow(/no chunk starts with .*start-console/);
  });
});
