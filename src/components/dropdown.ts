/** Every dropdown of the console (spec section 2, generic table behaviour). */
export const DROPDOWN_DEFAULTS = {
  placeholder: '-- Select --',
  nothingFoundMessage: 'No options found',
  maxDropdownHeight: 200,
} as const;
