import { describe, expect, it } from 'vitest';
import { renderLoginCard } from '../../scripts/build/login-card';
import { inertCard } from '../../scripts/build/login-page';

describe('the sign-in screen drawn at build', () => {
  it('is the console’s own sign-in card, inert, with read-only inputs and no script', async () => {
    const card = inertCard(await renderLoginCard());
    expect(card).toMatch(/<main inert="" [^>]*class="[^"]*mantine-Center-root/);
    expect(card).toContain('>Login</h1>');
    for (const name of ['email', 'password', 'rememberMe']) {
      expect(card).toMatch(new RegExp(`<input readonly="" [^>]*name="${name}"`));
    }
    expect(card).toContain('>Remember me</label>');
    expect(card).toContain('>Forgot Password?</a>');
    expect(card).not.toContain('<script');
    // No stored session: the product's own name, no reseller's logo.
    expect(card).toContain('>Launchpad</span>');
  });

  it('refuses a card it cannot make inert', () => {
    expect(() => inertCard('<div>Login</div>')).toThrow('no <main>');
  });
});
