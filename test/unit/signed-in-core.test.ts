import type { Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { namesImported, reExports } from '../../scripts/build/signed-in-core';

const INDEX = '/repo/node_modules/@ui/core/esm/index.mjs';
const moduleInfo = (id: string, code: string, importedIds: string[] = []) =>
  ({ id, code, importedIds }) as unknown as Rollup.ModuleInfo;

describe("a library's index", () => {
  it('names the module each export comes from, another package and renamed ones included', () => {
    const code = [
      'import { Button } from "./components/Button/Button.mjs";',
      'import { Modal, ModalRoot } from "./components/Modal/Modal.mjs";',
      'import { transitions } from "./components/Transition/transitions.mjs";',
      'import { RemoveScroll } from "react-remove-scroll";',
      'export { Button, Modal, ModalRoot, transitions as TRANSITIONS, RemoveScroll };',
      '//# sourceMappingURL=index.mjs.map',
    ].join('\n');
    const scroll = '/repo/node_modules/react-remove-scroll/dist/es2015/index.js';
    const modules = reExports(moduleInfo(INDEX, code, [scroll]));
    expect(modules?.get('Button')).toBe(
      '/repo/node_modules/@ui/core/esm/components/Button/Button.mjs',
    );
    expect(modules?.get('ModalRoot')).toBe(
      '/repo/node_modules/@ui/core/esm/components/Modal/Modal.mjs',
    );
    expect(modules?.get('TRANSITIONS')).toBe(
      '/repo/node_modules/@ui/core/esm/components/Transition/transitions.mjs',
    );
    expect(modules?.get('RemoveScroll')).toBe(scroll);
  });

  it('is not an index when the module does anything but re-export', () => {
    const code = 'import { a } from "./a.mjs";\nconst b = a + 1;\nexport { a, b };';
    expect(reExports(moduleInfo(INDEX, code))).toBeNull();
    // Our own modules are walked whole.
    expect(reExports(moduleInfo('/repo/src/index.ts', 'export { a } from "./a";'))).toBeNull();
  });
});

describe('the names a module imports from an index', () => {
  it('reads named imports from that package alone, with their exported names', () => {
    const code = [
      'import { useState } from "react";',
      'import { Button, Modal as Dialog } from "@ui/core";',
      'import { Table } from "@ui/core";',
    ].join('\n');
    expect(namesImported(code, INDEX)).toEqual(['Button', 'Modal', 'Table']);
  });

  it('cannot tell for a namespace import, nor for a module that imports none', () => {
    expect(namesImported('import * as UI from "@ui/core";', INDEX)).toBeNull();
    expect(namesImported('import { useState } from "react";', INDEX)).toBeNull();
  });
});
