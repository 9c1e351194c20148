/**
 * Stands in for TanStack Form's form groups (an alias in vite.config.ts). The console's forms do
 * not use `form.FormGroup`, yet every `useForm` brought it, with `FormGroupApi`: 15 KB of the
 * sign-in screen's first download.
 */
function formGroupsAreLeftOut(): never {
  throw new Error('TanStack Form groups are left out of the console (vite.config.ts)');
}

export const FormGroup = formGroupsAreLeftOut;
export const useFormGroup = formGroupsAreLeftOut;
