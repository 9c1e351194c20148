import { listTeamsResponse, type TeamRow } from '../../../src/api/contract/teams';
import { pageOptions, type Command } from '../command';
import { parseCount, stringOption } from '../values';

const list: Command = {
  path: ['team', 'list'],
  summary: 'list your teams (every team for an Admin)',
  options: pageOptions,
  async run({ api, options, output }) {
    const page = await api().call('GET', 'teams/list', listTeamsResponse, {
      query: {
        search: stringOption(options.search),
        page: parseCount(options.page, 'page', 1),
        rowsPerPage: parseCount(options.limit, 'limit', 50),
      },
    });
    output.list<TeamRow>(page.data.data, [
      { header: 'id', value: (r) => r.id, align: 'right' },
      { header: 'name', value: (r) => r.name },
      { header: 'users', value: (r) => r.userCount, align: 'right' },
      { header: 'vms', value: (r) => r.vmCount, align: 'right' },
    ]);
  },
};

export const teamCommands: Command[] = [list];
