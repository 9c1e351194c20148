import { z } from 'zod';
import { emptyEnvelope, envelope, idSchema, pageQuery } from './envelope';
import { teamRoleId } from './roles';
import { NO_CONTROL_CHARACTERS } from './validation';

export const TEAM_NAME_MAX = 100;

export const teamMessages = {
  nameRequired: 'Team name cannot be empty',
  nameTooLong: `Team name must not exceed ${TEAM_NAME_MAX} characters`,
  nameTaken: 'A team with this name already exists',
  nameControlCharacters: 'Team name must not contain control characters',
  notFound: 'Team not found',
  userNotFound: 'User not found',
  alreadyMember: 'The user is already a member of this team',
  notMember: 'The user is not a member of this team',
  parentNotFound: 'Parent team not found',
  created: 'Team created',
  updated: 'Team updated',
  deleted: 'Team deleted',
  memberAdded: 'User added to team',
  memberRemoved: 'User removed from team',
} as const;

export const teamNameSchema = z
  .string({ error: teamMessages.nameRequired })
  .trim()
  .min(1, teamMessages.nameRequired)
  .max(TEAM_NAME_MAX, teamMessages.nameTooLong)
  .regex(NO_CONTROL_CHARACTERS, teamMessages.nameControlCharacters);

const id = idSchema;

export const teamRow = z.object({
  id: z.number().int(),
  name: z.string(),
  userCount: z.number().int(),
  vmCount: z.number().int(),
});
export type TeamRow = z.infer<typeof teamRow>;

export const listTeamsQuery = pageQuery;
export type ListTeamsQuery = z.output<typeof listTeamsQuery>;
/** The caller's teams (all of the company's for an Admin) plus the Unassigned counts. */
export const listTeamsResponse = envelope(
  z.object({
    data: z.array(teamRow),
    unassignedUsers: z.number().int(),
    unassignedVMs: z.number().int(),
    totalPages: z.number().int().min(1),
  }),
);
export type TeamPage = z.infer<typeof listTeamsResponse>['data'];

export const teamMember = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  roleId: z.number().int(),
});
export type TeamMember = z.infer<typeof teamMember>;

export const teamIdParam = z.object({ id });
export const teamDetailsQuery = pageQuery.extend({
  rowsPerPage: z.coerce.number().int().min(1).max(100).default(5),
});
export type TeamDetailsQuery = z.output<typeof teamDetailsQuery>;
/** `GET /teams/{id}`: the name and one page of its members. */
export const teamDetailsResponse = envelope(
  z.object({
    id: z.number().int(),
    teamName: z.string(),
    parentTeamId: z.number().int().nullable(),
    /** The caller's own role on the team (1 for Admins): the console offers only what it allows. */
    yourRoleId: z.number().int(),
    members: z.array(teamMember),
    totalPages: z.number().int().min(1),
  }),
);
export type TeamDetails = z.infer<typeof teamDetailsResponse>['data'];

export const createTeamBody = z.object({
  name: teamNameSchema,
  parentTeamId: id.nullish(),
});
export type CreateTeamBody = z.input<typeof createTeamBody>;
export const createTeamResponse = envelope(z.object({ teamId: z.number().int() }));

export const updateTeamBody = z.object({ teamId: id, name: teamNameSchema });
export type UpdateTeamBody = z.input<typeof updateTeamBody>;

/** A new member starts as Viewer unless a role is given. */
export const addTeamUserBody = z.object({ teamId: id, userId: id, roleId: teamRoleId.optional() });
export type AddTeamUserBody = z.input<typeof addTeamUserBody>;
export const removeTeamUserBody = z.object({ teamId: id, userId: id });
export type RemoveTeamUserBody = z.input<typeof removeTeamUserBody>;
export const deleteTeamBody = z.object({ teamId: id });

export const teamActionResponse = emptyEnvelope;
