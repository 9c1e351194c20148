import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configPath, loadCredentials, saveCredentials } from '../../cli/src/config';

describe('the CLI configuration file', () => {
  let home: string;
  let env: Record<string, string>;

  beforeEach(() => {
    home = mkdtempSync(path.join(tmpdir(), 'launchpad-config-'));
    env = { XDG_CONFIG_HOME: home };
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('lives in $XDG_CONFIG_HOME/launchpad, else in ~/.config/launchpad', () => {
    expect(configPath(env)).toBe(path.join(home, 'launchpad', 'config.json'));
    expect(configPath({})).toMatch(/\.config[/\\]launchpad[/\\]config\.json$/);
  });

  it('is readable by its owner only, in a directory only they may enter', () => {
    // A directory made before, too open, is closed again.
    mkdirSync(path.join(home, 'launchpad'));
    chmodSync(path.join(home, 'launchpad'), 0o755);
    const file = saveCredentials({ url: 'https://lp.example', token: 'lp_secret' }, env);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      url: 'https://lp.example',
      token: 'lp_secret',
    });
  });

  it('gives way to LAUNCHPAD_URL and LAUNCHPAD_TOKEN', () => {
    saveCredentials({ url: 'https://lp.example', token: 'lp_saved' }, env);
    expect(loadCredentials(env)).toEqual({ url: 'https://lp.example', token: 'lp_saved' });
    expect(loadCredentials({ ...env, LAUNCHPAD_TOKEN: 'lp_env' })).toEqual({
      url: 'https://lp.example',
      token: 'lp_env',
    });
  });

  it('says what is missing when nothing is configured', () => {
    expect(() => loadCredentials(env)).toThrow(/No server URL configured/);
    expect(() => loadCredentials({ ...env, LAUNCHPAD_URL: 'https://lp.example' })).toThrow(
      /No token configured/,
    );
  });
});
