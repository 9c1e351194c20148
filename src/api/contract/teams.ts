import { z } from './zod';
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
  .check(
    z.trim(),
    z.minLength(1, teamMessages.nameRequired),
    z.maxLength(TEAM_NAME_MAX, { error: teamMessages.nameTooLong, abort: true }),
    z.regex(NO_CONTROL_CHARACTERS, teamMessages.nameControlCharacters),
  );

const id = idSchema;

export const teamRow = z.object({
  id: z.int(),
  name: z.string(),
  userCount: z.int(),
  vmCount: z.int(),
});
export type TeamRow = z.infer<typeof teamRow>;

export const listTeamsQuery = pageQuery;
export type ListTeamsQuery = z.output<typeof listTeamsQuery>;
/** The caller's teams (all of the company's for an Admin) plus the Unassigned counts. */
export const listTeamsResponse = envelope(
  z.object({
    data: z.array(teamRow),
    unassignedUsers: z.int(),
    unassignedVMs: z.int(),
    totalPages: z.int().check(z.gte(1)),
  }),
);
export type TeamPage = z.infer<typeof listTeamsResponse>['data'];

export const teamMember = z.object({
  id: z.int(),
  name: z.string(),
  email: z.string(),
  roleId: z.int(),
});
export type TeamMember = z.infer<typeof teamMember>;

export const teamIdParam = z.object({ id });
export const teamDetailsQuery = z.extend(pageQuery, {
  rowsPerPage: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 5),
});
export type TeamDetailsQuery = z.output<typeof teamDetailsQuery>;
/** `GET /teams/{id}`: the name and one page of its members. */
export const teamDetailsResponse = envelope(
  z.object({
    id: z.int(),
    teamName: z.string(),
    parentTeamId: z.nullable(z.int()),
    /** The caller's own role on the team (1 for Admins): the console offers only what it allows. */
    yourRoleId: z.int(),
    members: z.array(teamMember),
    totalPages: z.int().check(z.gte(1)),
  }),
);
export type TeamDetails = z.infer<typeof teamDetailsResponse>['data'];

export const createTeamBody = z.object({
  name: teamNameSchema,
  parentTeamId: z.nullish(id),
});
export type CreateTeamBody = z.input<typeof createTeamBody>;
export const createTeamResponse = envelope(z.object({ teamId: z.int() }));

export const updateTeamBody = z.object({ teamId: id, name: teamNameSchema });
export type UpdateTeamBody = z.input<typeof updateTeamBody>;

/** A new member starts as Viewer unless a role is given. */
export const addTeamUserBody = z.object({ teamId: id, userId: id, roleId: z.optional(teamRoleId) });
export type AddTeamUserBody = z.input<typeof addTeamUserBody>;
export const removeTeamUserBody = z.object({ teamId: id, userId: id });
export type RemoveTeamUserBody = z.input<typeof removeTeamUserBody>;
export const deleteTeamBody = z.object({ teamId: id });

export const teamActionResponse = emptyEnvelope;
