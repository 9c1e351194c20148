#!/usr/bin/env bash
# CI's proof of the image (.ci/run, after the build): the Containerfile builds with Debian's
# podman/buildah on a base made from Debian's packages (base-image.sh, kept between runs); the image
# starts on PGlite, answers its health check and serves the console; it starts on the CI PostgreSQL;
# two containers share one PostgreSQL database. Every port is bound to 127.0.0.1; the containers,
# the image and the database made here are removed at the end.
#
#   PG_URL=postgres://user:password@127.0.0.1:5432/postgres scripts/container/ci.sh
#
# Notes on this machine (docs/operations/container.md): crun refuses its hybrid cgroups, so the
# runtime is runc with cgroups left alone; raising a hard limit is not allowed, so the limits are
# given at or below this shell's; the containers reach the host's PostgreSQL on 127.0.0.1 through
# slirp4netns (10.0.2.2 inside). Without systemd, podman cannot time the HEALTHCHECK (its complaint
# goes to a log of its own here); the check is run by hand, `podman healthcheck run`.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PG_URL:?PG_URL: a PostgreSQL URL whose role may create databases}"

base=localhost/launchpad-node-base:20-bookworm
tag=localhost/launchpad-ci:$$
admin_email=admin@container-ci.example
admin_password='Container!Ci-Passw0rd'
secret=$(node -e 'console.log(require("node:crypto").randomBytes(32).toString("base64url"))')
db=launchpad_container_$(date +%s)_$$
db_url=$(node -e 'const u = new URL(process.argv[1]); u.hostname = "10.0.2.2"; u.pathname = "/" + process.argv[2]; console.log(u.href)' "$PG_URL" "$db")
work=$(mktemp -d)
containers=()
image_id=

run_opts=(--runtime runc --ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --ulimit nproc=4096:4096)

cleanup() {
  local status=$?
  for id in "${containers[@]}"; do
    [ "$status" = 0 ] || { echo "--- log of ${id:0:12}"; podman logs "$id" 2>&1 | tail -n 30; }
    # The /data volume of each: removed by name (rm -v leaves it here).
    volumes=$(podman inspect -f '{{range .Mounts}}{{.Name}} {{end}}' "$id" 2>/dev/null || true)
    podman rm -f -v -t 5 "$id" >/dev/null 2>&1 || true
    for volume in $volumes; do podman volume rm -f "$volume" >/dev/null 2>&1 || true; done
  done
  [ -z "$image_id" ] || podman rmi -f "$image_id" >/dev/null 2>&1 || true
  node -e 'const pg = require("pg"); const c = new pg.Client(process.argv[1]); c.connect().then(() => c.query(`DROP DATABASE IF EXISTS ${process.argv[2]} WITH (FORCE)`)).finally(() => c.end())' \
    "$PG_URL" "$db" >/dev/null 2>&1 || true
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT

t0=$SECONDS
bash scripts/container/base-image.sh "$base"
echo "base image: $((SECONDS - t0)) s"

# The build's RUN steps use this machine's npm cache, and its CA bundle and npm's cafile setting
# when it has them (an egress proxy's certificate), through mounts that stay out of the image.
build_mounts=(-v "$HOME/.npm:/root/.npm")
cafile=$(npm config get cafile 2>/dev/null || true)
if [ -n "$cafile" ] && [ "$cafile" != null ] && [ -f "$cafile" ]; then
  printf 'cafile=/etc/ssl/certs/ca-certificates.crt\n' >"$work/npmrc"
  build_mounts+=(-v "$cafile:/etc/ssl/certs/ca-certificates.crt:ro" -v "$work/npmrc:/root/.npmrc:ro")
fi

t0=$SECONDS
podman build --format docker "${run_opts[@]}" "${build_mounts[@]}" \
  --build-arg NODE_IMAGE="$base" --iidfile "$work/iid" -t "$tag" -f Containerfile . >"$work/build.log" 2>&1 ||
  { tail -n 40 "$work/build.log"; exit 1; }
image_id=$(cat "$work/iid")
echo "image built: $((SECONDS - t0)) s, $(podman image inspect -f '{{.Size}}' "$image_id" | awk '{printf "%d MB", $1 / 1e6}')"

# A free port on 127.0.0.1.
free_port() { node -e 's = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }

# start <port> [podman run options…]: a container on slirp4netns with the port published; its id in
# $started (not printed: a command substitution's subshell would lose it from $containers).
start() {
  local port=$1
  shift
  started=$(podman run -d "${run_opts[@]}" --network slirp4netns:allow_host_loopback=true \
    -p "127.0.0.1:$port:3000" -e SIM_PROVISION_SECONDS=0 "$@" "$image_id" 2>>"$work/podman.log")
  containers+=("$started")
}

# healthy <port> <container>: ready within 90 s (its port answers liveness from the first second,
# requests once ready), and the image's own HEALTHCHECK passes.
healthy() {
  local port=$1 id=$2
  for _ in $(seq 1 90); do
    if curl -fsS "http://127.0.0.1:$port/api/v1/healthCheck/ready" >/dev/null 2>&1 &&
      curl -fsS "http://127.0.0.1:$port/api/v1/healthCheck/api" >"$work/health" 2>/dev/null; then
      podman healthcheck run "$id" >/dev/null 2>&1 ||
        { echo "the HEALTHCHECK of ${id:0:12} failed while the API answered"; return 1; }
      return 0
    fi
    [ "$(podman inspect -f '{{.State.Running}}' "$id")" = true ] || { echo "${id:0:12} stopped"; return 1; }
    sleep 1
  done
  echo "${id:0:12} did not answer within 90 s"
  return 1
}

t0=$SECONDS
port=$(free_port)
start "$port"
id=$started
healthy "$port" "$id"
echo "PGlite: healthy after $((SECONDS - t0)) s: $(cat "$work/health")"
[ "$(podman exec "$id" id -u)" != 0 ] || { echo "the server runs as root"; exit 1; }
page=$(curl -fsS "http://127.0.0.1:$port/")
grep -q '<title>Launchpad' <<<"$page" && grep -q '<div id="root"' <<<"$page" ||
  { echo "no console page at /"; exit 1; }
podman exec "$id" test -d /data/pglite || { echo "PGlite is not in the /data volume"; exit 1; }
podman stop -t 20 "$id" >/dev/null 2>>"$work/podman.log"
echo "PGlite: console served, data in the volume, stopped with status $(podman inspect -f '{{.State.ExitCode}}' "$id")"

node -e 'const pg = require("pg"); const c = new pg.Client(process.argv[1]); c.connect().then(() => c.query(`CREATE DATABASE ${process.argv[2]}`)).finally(() => c.end())' \
  "$PG_URL" "$db"
shared=(-e "DATABASE_URL=$db_url" -e "APP_SECRET=$secret" -e "BOOTSTRAP_ADMIN_EMAIL=$admin_email"
  -e "BOOTSTRAP_ADMIN_PASSWORD=$admin_password")

t0=$SECONDS
port_a=$(free_port)
start "$port_a" "${shared[@]}"
a=$started
healthy "$port_a" "$a"
echo "PostgreSQL: the first container healthy after $((SECONDS - t0)) s"
port_b=$(free_port)
start "$port_b" "${shared[@]}"
b=$started
healthy "$port_b" "$b"
echo "PostgreSQL: the second container healthy"
node scripts/container/shared-check.js "http://127.0.0.1:$port_a" "http://127.0.0.1:$port_b" \
  "$a" "$admin_email" "$admin_password"
echo "container CI: passed"
