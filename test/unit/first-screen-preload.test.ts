import { describe, expect, it } from 'vitest';
import { routePattern, screenFiles } from '../../scripts/build/first-screen-preload';
import { bundleOf, chunk } from './support/build-chunks';

const matches = (routeFile: string, path: string) => new RegExp(routePattern(routeFile)).test(path);

describe('the address a route file answers', () => {
  it('leaves pathless layouts and index routes out of the address', () => {
    expect(matches('_app/virtualMachines', '/virtualMachines')).toBe(true);
    expect(matches('_app/virtualMachines', '/virtualMachines/')).toBe(true);
    expect(matches('_app/index', '/')).toBe(true);
    expect(matches('_app/networks/index', '/networks')).toBe(true);
    expect(matches('_app/virtualMachines', '/virtualMachinesX')).toBe(false);
    expect(matches('_app/index', '/users')).toBe(false);
  });

  it('takes any one segment for a parameter, in folders and in dotted names', () => {
    expect(matches('_app/networks/$networkId/edit', '/networks/12/edit')).toBe(true);
    expect(matches('_app/networks/$networkId/edit', '/networks/12/13/edit')).toBe(false);
    expect(
      matches('_fullscreen/virtualMachineConsole.$virtualMachineId', '/virtualMachineConsole/5'),
    ).toBe(true);
  });
});

const split = (route: string, parts = 'component---loader') =>
  `/repo/src/routes/${route}.tsx?tsr-split=${parts}`;

describe("a screen's files", () => {
  const bundle = bundleOf(
    chunk('assets/initial.js', {
      facade: '/repo/index.html',
      entry: true,
      imports: ['assets/runtime.js'],
    }),
    chunk('assets/runtime.js'),
    chunk('assets/app.js', { imports: ['assets/runtime.js'], css: ['assets/app.css'] }),
    chunk('assets/_app.js', { facade: split('_app'), imports: ['assets/app.js'] }),
    chunk('assets/_app-error.js', {
      facade: split('_app', 'errorComponent'),
      imports: ['assets/app.js'],
    }),
    chunk('assets/vms.js', {
      facade: split('_app/virtualMachines'),
      imports: ['assets/app.js', 'assets/vm-table.js'],
    }),
    chunk('assets/vm-table.js', { imports: ['assets/app.js'] }),
    chunk('assets/network.js', {
      facade: split('_app/networks/$networkId'),
      imports: ['assets/app.js'],
    }),
    chunk('assets/network-index.js', { facade: split('_app/networks/$networkId/index') }),
  );
  const screens = new Map(screenFiles(bundle));

  it("are its route's and its layouts' chunks with what they import, and their styles", () => {
    expect(screens.get(routePattern('_app/virtualMachines'))).toEqual([
      'assets/_app.js',
      'assets/app.js',
      'assets/vms.js',
      'assets/vm-table.js',
      'assets/app.css',
    ]);
  });

  it('leave out what the page loads anyway, and error screens', () => {
    const all = [...screens.values()].flat();
    expect(all).not.toContain('assets/initial.js');
    expect(all).not.toContain('assets/runtime.js');
    expect(all).not.toContain('assets/_app-error.js');
  });

  it('make one screen of a layout and its index route, and none of a pathless layout', () => {
    expect(screens.get(routePattern('_app/networks/$networkId'))).toEqual([
      'assets/_app.js',
      'assets/app.js',
      'assets/network.js',
      'assets/app.css',
      'assets/network-index.js',
    ]);
    expect([...screens.keys()]).not.toContain(routePattern('_app'));
    expect(screens.size).toBe(2);
  });
});
