#!/usr/bin/env bash
# Stops what up.sh started (by the pids it wrote), then removes its namespace and its state.
set -uo pipefail
cd "$(dirname "$0")"
source ./env.sh

for name in neutron-l3-agent neutron-dhcp-agent neutron-openvswitch-agent neutron-server \
  nova-compute nova-novncproxy nova-scheduler nova-conductor nova-api placement glance keystone \
  tap-replug ovs-vswitchd ovsdb-server rabbitmq mariadb; do
  file=$OS_STATE/run/$name.pid
  [ -f "$file" ] || continue
  pid=$(cat "$file")
  kill "$pid" 2> /dev/null
  for _ in $(seq 1 40); do kill -0 "$pid" 2> /dev/null || break; sleep 0.25; done
  kill -9 "$pid" 2> /dev/null
done
# libvirtd's mount namespace: what runs in the namespaces Neutron made there (dnsmasq, routers),
# then its holder; libvirtd, virtlogd and any guest go with the network namespace below.
holder=$(cat "$OS_STATE/run/libvirt.pid" 2> /dev/null)
if [ -n "$holder" ] && kill -0 "$holder" 2> /dev/null; then
  for ns in $(nsenter -t "$holder" -m -n ip netns list | cut -d' ' -f1); do
    for pid in $(nsenter -t "$holder" -m -n ip netns pids "$ns"); do kill -9 "$pid" 2> /dev/null; done
  done
  kill -9 "$holder" 2> /dev/null
fi
# Anything else still inside the namespace.
for pid in $(ip netns pids "$OS_NETNS" 2> /dev/null); do kill -9 "$pid" 2> /dev/null; done
ip netns list | grep -qw "$OS_NETNS" && ip netns delete "$OS_NETNS"
ip netns list | grep -qw "$OS_OUTSIDE_NETNS" && ip netns delete "$OS_OUTSIDE_NETNS"
rm -rf "$OS_STATE"
echo "down: namespaces $OS_NETNS and $OS_OUTSIDE_NETNS and $OS_STATE removed"
