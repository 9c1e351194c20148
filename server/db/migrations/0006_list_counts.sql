CREATE TABLE "list_counts" (
	"list" text NOT NULL,
	"owner_id" integer NOT NULL,
	"n" integer NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "list_counts_list_owner_id_pk" PRIMARY KEY("list","owner_id")
);
--> statement-breakpoint
-- Adds each (list, owner, delta) to the counts; a delta of 0 still moves the version (the list's
-- order changed). In key order, so that two transactions lock the same rows in the same order.
CREATE FUNCTION list_counts_add(lists text[], owners integer[], deltas bigint[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO list_counts AS c (list, owner_id, n, version)
  SELECT u.list, u.owner_id, sum(u.delta), 1
  FROM unnest(lists, owners, deltas) AS u(list, owner_id, delta)
  WHERE u.list IS NOT NULL
  GROUP BY u.list, u.owner_id
  ORDER BY u.list, u.owner_id
  ON CONFLICT (list, owner_id) DO UPDATE SET n = c.n + excluded.n, version = c.version + 1
$$;
--> statement-breakpoint
-- The lists a VM counts in: its company's, and its team's or the company's unassigned VMs.
CREATE FUNCTION vm_lists(company_id integer, team_id integer) RETURNS TABLE (list text, owner_id integer)
LANGUAGE sql IMMUTABLE AS $$
  VALUES ('vms', company_id),
    (CASE WHEN team_id IS NULL THEN 'unassigned_vms' ELSE 'team_vms' END, coalesce(team_id, company_id))
$$;
--> statement-breakpoint
-- A VM counts while it is not deleted. An update counts as leaving and coming back when anything
-- the lists filter or sort on changed. Statement triggers: a bulk change adds to each count once.
CREATE FUNCTION virtual_machines_list_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  lists text[];
  owners integer[];
  deltas bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(k.list), array_agg(k.owner_id), array_agg(g.d) INTO lists, owners, deltas
    FROM (SELECT company_id, team_id, count(*) AS d FROM new_rows WHERE deleted_at IS NULL GROUP BY 1, 2) g
    CROSS JOIN LATERAL vm_lists(g.company_id, g.team_id) k;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(k.list), array_agg(k.owner_id), array_agg(g.d) INTO lists, owners, deltas
    FROM (SELECT company_id, team_id, -count(*) AS d FROM old_rows WHERE deleted_at IS NULL GROUP BY 1, 2) g
    CROSS JOIN LATERAL vm_lists(g.company_id, g.team_id) k;
  ELSE
    SELECT array_agg(k.list), array_agg(k.owner_id), array_agg(g.d) INTO lists, owners, deltas
    FROM (
      SELECT m.company_id, m.team_id, sum(m.d) AS d
      FROM old_rows o
      JOIN new_rows n ON n.id = o.id
      CROSS JOIN LATERAL (VALUES (o.company_id, o.team_id, -1, o.deleted_at),
        (n.company_id, n.team_id, 1, n.deleted_at)) AS m(company_id, team_id, d, deleted_at)
      WHERE m.deleted_at IS NULL
        AND (o.company_id, o.team_id, o.name, o.status, o.configuration_id, o.created_at, o.deleted_at)
          IS DISTINCT FROM (n.company_id, n.team_id, n.name, n.status, n.configuration_id, n.created_at, n.deleted_at)
      GROUP BY 1, 2
    ) g
    CROSS JOIN LATERAL vm_lists(g.company_id, g.team_id) k;
  END IF;
  IF lists IS NOT NULL THEN
    PERFORM list_counts_add(lists, owners, deltas);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER virtual_machines_list_counts_insert AFTER INSERT ON virtual_machines
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION virtual_machines_list_counts();
--> statement-breakpoint
CREATE TRIGGER virtual_machines_list_counts_update AFTER UPDATE ON virtual_machines
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION virtual_machines_list_counts();
--> statement-breakpoint
CREATE TRIGGER virtual_machines_list_counts_delete AFTER DELETE ON virtual_machines
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION virtual_machines_list_counts();
--> statement-breakpoint
-- A network counts in its company's list while it is not deleted.
CREATE FUNCTION networks_list_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owners integer[];
  deltas bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(company_id), array_agg(d) INTO owners, deltas
    FROM (SELECT company_id, count(*) AS d FROM new_rows WHERE deleted_at IS NULL GROUP BY 1) g;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(company_id), array_agg(d) INTO owners, deltas
    FROM (SELECT company_id, -count(*) AS d FROM old_rows WHERE deleted_at IS NULL GROUP BY 1) g;
  ELSE
    SELECT array_agg(company_id), array_agg(d) INTO owners, deltas
    FROM (
      SELECT m.company_id, sum(m.d) AS d
      FROM old_rows o
      JOIN new_rows n ON n.id = o.id
      CROSS JOIN LATERAL (VALUES (o.company_id, -1, o.deleted_at), (n.company_id, 1, n.deleted_at))
        AS m(company_id, d, deleted_at)
      WHERE m.deleted_at IS NULL
        AND (o.company_id, o.deleted_at) IS DISTINCT FROM (n.company_id, n.deleted_at)
      GROUP BY 1
    ) g;
  END IF;
  IF owners IS NOT NULL THEN
    PERFORM list_counts_add(array_fill('networks'::text, ARRAY[cardinality(owners)]), owners, deltas);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER networks_list_counts_insert AFTER INSERT ON networks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION networks_list_counts();
--> statement-breakpoint
CREATE TRIGGER networks_list_counts_update AFTER UPDATE ON networks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION networks_list_counts();
--> statement-breakpoint
CREATE TRIGGER networks_list_counts_delete AFTER DELETE ON networks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION networks_list_counts();
--> statement-breakpoint
-- Users and teams count in their company's list; neither moves to another company.
CREATE FUNCTION company_rows_list_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  list text := TG_ARGV[0];
  owners integer[];
  deltas bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(company_id), array_agg(d) INTO owners, deltas
    FROM (SELECT company_id, count(*) AS d FROM new_rows GROUP BY 1) g;
  ELSE
    SELECT array_agg(company_id), array_agg(d) INTO owners, deltas
    FROM (SELECT company_id, -count(*) AS d FROM old_rows GROUP BY 1) g;
  END IF;
  IF owners IS NOT NULL THEN
    PERFORM list_counts_add(array_fill(list, ARRAY[cardinality(owners)]), owners, deltas);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_list_counts_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION company_rows_list_counts('users');
--> statement-breakpoint
CREATE TRIGGER users_list_counts_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION company_rows_list_counts('users');
--> statement-breakpoint
CREATE TRIGGER teams_list_counts_insert AFTER INSERT ON teams
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION company_rows_list_counts('teams');
--> statement-breakpoint
CREATE TRIGGER teams_list_counts_delete AFTER DELETE ON teams
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION company_rows_list_counts('teams');
--> statement-breakpoint
-- A membership counts in its team's members and in its user's teams.
CREATE FUNCTION team_members_list_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  lists text[];
  owners integer[];
  deltas bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(k.list), array_agg(k.owner_id), array_agg(k.d) INTO lists, owners, deltas
    FROM new_rows r CROSS JOIN LATERAL (VALUES ('team_members', r.team_id, 1), ('user_teams', r.user_id, 1)) AS k(list, owner_id, d);
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(k.list), array_agg(k.owner_id), array_agg(k.d) INTO lists, owners, deltas
    FROM old_rows r CROSS JOIN LATERAL (VALUES ('team_members', r.team_id, -1), ('user_teams', r.user_id, -1)) AS k(list, owner_id, d);
  END IF;
  IF lists IS NOT NULL THEN
    PERFORM list_counts_add(lists, owners, deltas);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER team_members_list_counts_insert AFTER INSERT ON team_members
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION team_members_list_counts();
--> statement-breakpoint
CREATE TRIGGER team_members_list_counts_delete AFTER DELETE ON team_members
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION team_members_list_counts();
--> statement-breakpoint
-- The counts of the rows already there.
INSERT INTO list_counts (list, owner_id, n, version)
SELECT k.list, k.owner_id, count(*), 1
FROM virtual_machines v CROSS JOIN LATERAL vm_lists(v.company_id, v.team_id) k
WHERE v.deleted_at IS NULL
GROUP BY 1, 2
UNION ALL
SELECT 'networks', company_id, count(*), 1 FROM networks WHERE deleted_at IS NULL GROUP BY 2
UNION ALL
SELECT 'users', company_id, count(*), 1 FROM users GROUP BY 2
UNION ALL
SELECT 'teams', company_id, count(*), 1 FROM teams GROUP BY 2
UNION ALL
SELECT 'team_members', team_id, count(*), 1 FROM team_members GROUP BY 2
UNION ALL
SELECT 'user_teams', user_id, count(*), 1 FROM team_members GROUP BY 2;
