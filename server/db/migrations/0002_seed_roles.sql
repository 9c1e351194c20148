-- The fixed roles. Ids are part of the API contract (Admin is 1); src/api/contract/roles.ts names them.
INSERT INTO "roles" ("id", "name", "info") VALUES
  (1, 'Admin', 'Company administrator: full access to every user, team, virtual machine and network of the company. Set by the company, not per team.'),
  (2, 'Manager', 'Manages the team: adds and removes members, sets their roles, renames the team, and creates, operates, upgrades and deletes its virtual machines.'),
  (3, 'Operator', 'Creates and operates the team''s virtual machines: start, stop, reset, console, credentials, edit and network interfaces. Cannot delete or upgrade them or change the team.'),
  (4, 'Viewer', 'Read-only: sees the team, its members and its virtual machines, and cannot change anything.');
