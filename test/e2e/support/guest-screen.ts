import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { shotsDir } from './browser';

const SHIFTED = '~!@#$%^&*()_+{}|:"<>?';
const UNSHIFTED = "`1234567890-=[]\\;',./";

/**
 * Types as a person on a US keyboard does, Shift held for capitals and symbols: the guest's
 * keyboard turns keys into characters itself, so a '$' sent without Shift would arrive as '4'.
 */
export async function typeKeys(page: Page, text: string) {
  for (const char of text) {
    const symbol = SHIFTED.indexOf(char);
    const base = symbol >= 0 ? UNSHIFTED[symbol]! : /[A-Z]/.test(char) ? char.toLowerCase() : null;
    if (base === null) {
      await page.keyboard.press(char === '\n' ? 'Enter' : char);
    } else {
      await page.keyboard.down('Shift');
      await page.keyboard.press(base);
      await page.keyboard.up('Shift');
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

/** The text on the guest's screen as noVNC draws it: the canvas, read by OCR (tesseract). */
export async function screenText(frame: Frame, name: string): Promise<string> {
  const png = await frame.locator('canvas').screenshot();
  const file = path.join(shotsDir, `${name}.png`);
  writeFileSync(file, png);
  // The console's light-on-dark text reads best inverted and enlarged.
  return execFileSync('tesseract', [file, '-', '--psm', '6'], { encoding: 'utf8' });
}
