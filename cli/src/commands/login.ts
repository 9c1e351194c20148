import { meResponse } from '../../../src/api/contract/users';
import { type Command } from '../command';
import { loadCredentials, saveCredentials } from '../config';
import { usageError } from '../errors';
import { Api } from '../http';
import { prompter } from '../prompt';
import { stringOption } from '../values';

/** The URL last used, offered as the default answer. */
function knownUrl(): string | undefined {
  try {
    return loadCredentials().url;
  } catch {
    return process.env.LAUNCHPAD_URL || undefined;
  }
}

const login: Command = {
  path: ['login'],
  summary: 'check a server URL and an API token, and save them for the next commands',
  options: {
    url: { type: 'string', value: 'url', description: 'the server, as the console is opened' },
  },
  notes: [
    'Make a token in the console: Profile -> API tokens. The token is asked for without echo.',
    'Saved to $XDG_CONFIG_HOME/launchpad/config.json (or ~/.config/...), readable by you only.',
    'LAUNCHPAD_URL and LAUNCHPAD_TOKEN, when set, take precedence over the saved values.',
  ],
  async run({ options, output }) {
    const questions = prompter();
    let url = stringOption(options.url);
    let token: string;
    try {
      if (!url) {
        const fallback = knownUrl();
        const answer = await questions.ask(`Launchpad URL${fallback ? ` [${fallback}]` : ''}: `);
        url = answer.trim() || fallback;
      }
      token = (await questions.askSecret('API token (lp_…): ')).trim();
    } finally {
      questions.close();
    }
    if (!url) throw usageError('A URL is required, e.g. https://launchpad.example.com');
    if (!token) throw usageError('A token is required');
    const { data: me } = await new Api({ url, token }).call('GET', 'users/me', meResponse);
    const file = saveCredentials({ url, token });
    output.done(
      `Signed in to ${url} as ${me.firstName} ${me.lastName} <${me.email}>; saved to ${file}`,
      {
        url,
        user: { id: me.id, email: me.email },
        config: file,
      },
    );
  },
};

export const loginCommands: Command[] = [login];
