import type { Page } from 'playwright-core';

/** How much of the page and its tables lies beyond the viewport's right edge (0 when none). */
export function overflowOf(page: Page) {
  // A string: the server's TypeScript project has no DOM types.
  return page.evaluate<{ document: number; tables: number[] }>(`(() => {
    const width = window.innerWidth;
    const tables = [...document.querySelectorAll('table')].map((table) => {
      const box = (table.closest('.mantine-Table-scrollContainer') ?? table).getBoundingClientRect();
      return Math.max(0, Math.ceil(box.right) - width, Math.ceil(table.getBoundingClientRect().right) - width);
    });
    return { document: Math.max(0, document.documentElement.scrollWidth - width), tables };
  })()`);
}
