import { mkdtempSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  exportedNames,
  formGroupsLeftOut,
  reactFormModules,
} from '../../scripts/build/form-groups-left-out';

const standIn = path.resolve(import.meta.dirname, '../../src/form-group-off.ts');

type Hook = (this: unknown, ...args: unknown[]) => unknown;

/** The plugin's hooks run as a build would run them; `this.error` throws, as Rollup's does. */
function build(modules: string) {
  const plugin = formGroupsLeftOut(standIn, modules);
  const context = {
    error(message: string): never {
      throw new Error(message);
    },
  };
  const hook =
    (name: 'buildStart' | 'resolveId' | 'buildEnd') =>
    (...args: unknown[]) =>
      (plugin[name] as Hook).call(context, ...args);
  return { start: hook('buildStart'), resolve: hook('resolveId'), end: hook('buildEnd') };
}

/** A copy of the part of TanStack Form the plugin looks at. */
function fakeReactForm() {
  const modules = path.join(mkdtempSync(path.join(tmpdir(), 'react-form-')), 'dist', 'esm');
  mkdirSync(modules, { recursive: true });
  writeFileSync(
    path.join(modules, 'useForm.js'),
    'import { FormGroup } from "./useFormGroup.js";\nexport { useForm };\n',
  );
  writeFileSync(
    path.join(modules, 'useFormGroup.js'),
    'function FormGroup() {}\nfunction useFormGroup() {}\nexport {\n  FormGroup,\n  useFormGroup\n};\n',
  );
  return modules;
}

describe("TanStack Form's form groups left out", () => {
  it('puts the stand-in in place for TanStack Form only, and checks it was used', () => {
    const modules = fakeReactForm();
    const { start, resolve, end } = build(modules);
    start();
    expect(resolve('./useFormGroup.js', path.join(modules, 'useForm.js'))).toBe(standIn);
    expect(resolve('./useFormGroup.js', path.join(modules, 'index.js'))).toBe(standIn);
    expect(resolve('./useFormGroup.js', '/repo/src/forms/useForm.js')).toBeNull();
    expect(resolve('./other.js', path.join(modules, 'useForm.js'))).toBeNull();
    expect(() => end()).not.toThrow();
  });

  it('fails the build when the module is renamed', () => {
    const modules = fakeReactForm();
    renameSync(path.join(modules, 'useFormGroup.js'), path.join(modules, 'useFormGroups.js'));
    expect(() => build(modules).start()).toThrow(/useFormGroup\.js is missing.*moved/);
  });

  it('fails the build when its importer no longer imports it', () => {
    const modules = fakeReactForm();
    writeFileSync(
      path.join(modules, 'useForm.js'),
      'import { FormGroup } from "./form-group.js";\nexport { useForm };\n',
    );
    expect(() => build(modules).start()).toThrow(/useForm\.js no longer imports/);
  });

  it('fails the build when the module exports a name the stand-in lacks', () => {
    const modules = fakeReactForm();
    writeFileSync(
      path.join(modules, 'useFormGroup.js'),
      'export { FormGroup, useFormGroup, FormGroupField };\n',
    );
    expect(() => build(modules).start()).toThrow(/exports FormGroupField/);
  });

  it('fails the build when nothing asked for the module', () => {
    const modules = fakeReactForm();
    const { start, end } = build(modules);
    start();
    expect(() => end()).toThrow(/never built with the stand-in/);
    // A build that failed already reports its own error, not this one.
    expect(() => end(new Error('syntax'))).not.toThrow();
  });

  it('finds the installed TanStack Form as it expects', () => {
    expect(() => build(reactFormModules()).start()).not.toThrow();
    expect(exportedNames('export const FormGroup = f;\nexport { a, b as c };')).toEqual([
      'a',
      'c',
      'FormGroup',
    ]);
  });
});
