#!/usr/bin/env bash
# Stops what up.sh started (by the pids it wrote), then removes its namespace and its state.
set -uo pipefail
cd "$(dirname "$0")"
source ./env.sh

for name in nova-compute nova-scheduler nova-conductor nova-api placement glance keystone rabbitmq mariadb; do
  file=$OS_STATE/run/$name.pid
  [ -f "$file" ] || continue
  pid=$(cat "$file")
  kill "$pid" 2> /dev/null
  for _ in $(seq 1 40); do kill -0 "$pid" 2> /dev/null || break; sleep 0.25; done
  kill -9 "$pid" 2> /dev/null
done
# libvirtd's mount namespace: its holder, then libvirtd, virtlogd and any guest in the namespace.
[ -f "$OS_STATE/run/libvirt.pid" ] && kill -9 "$(cat "$OS_STATE/run/libvirt.pid")" 2> /dev/null
# Anything else still inside the namespace.
for pid in $(ip netns pids "$OS_NETNS" 2> /dev/null); do kill -9 "$pid" 2> /dev/null; done
ip netns list | grep -qw "$OS_NETNS" && ip netns delete "$OS_NETNS"
rm -rf "$OS_STATE"
echo "down: namespace $OS_NETNS and $OS_STATE removed"
