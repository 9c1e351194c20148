/**
 * Stands in for TanStack Form's form groups (scripts/build/form-groups-left-out.ts puts it in
 * place of `@tanstack/react-form`'s `useFormGroup.js` in the build). The console's forms do not
 * use `form.FormGroup`, yet every `useForm` brought it, with `FormGroupApi`: 1.7 KB compressed of
 * the sign-in screen's first download.
 */
function formGroupsAreLeftOut(): never {
  throw new Error('TanStack Form groups are left out of the console (form-groups-left-out.ts)');
}

export const FormGroup = formGroupsAreLeftOut;
export const useFormGroup = formGroupsAreLeftOut;
