#!/usr/bin/env bash
# Run by up.sh beside ovs-vswitchd (in libvirtd's mount and network namespaces), for as long as it
# runs. Open vSwitch's userspace datapath reads a port's link through a socket bound to that link:
# when a guest's tap is destroyed and made again under the same name while its port stays in the
# database (a soft reboot starts a new QEMU; Nova does not plug the port again), the port stays
# deaf. Such a port is added again here as it was: same bridge, ofport, VLAN tag and ids, so the
# Neutron agent's flows still hold. The kernel datapath follows the link by itself.
set -uo pipefail

# The port's database row (its uuid) when its link went away, by link name.
declare -A gone
ip -o monitor link | while read -r line; do
  [[ $line =~ ^(Deleted )?[0-9]+:\ (tap[^:@]+)[:@] ]] || continue
  name=${BASH_REMATCH[2]}
  uuid=$(ovs-vsctl --if-exists get Interface "$name" _uuid 2> /dev/null)
  if [ -n "${BASH_REMATCH[1]}" ]; then
    [ -n "$uuid" ] && gone[$name]=$uuid
    continue
  fi
  # Once the new link is up (libvirt may make and drop a link before the one QEMU keeps); a row
  # made since (the port plugged again) opens the new link by itself.
  [[ $line =~ [\<,]UP[,\>] ]] && [ -n "$uuid" ] && [ "${gone[$name]:-}" = "$uuid" ] || continue
  unset "gone[$name]"
  bridge=$(ovs-vsctl port-to-br "$name")
  ofport=$(ovs-vsctl get Interface "$name" ofport)
  ids=$(ovs-vsctl get Interface "$name" external_ids)
  tag=$(ovs-vsctl get Port "$name" tag)
  config=$(ovs-vsctl get Port "$name" other_config)
  echo "$(date -u +%FT%TZ) $name made again: re-adding it to $bridge (ofport $ofport)"
  # In two steps, each waiting for ovs-vswitchd: a port removed and added in one step keeps its
  # old socket.
  ovs-vsctl del-port "$name"
  ovs-vsctl -- add-port "$bridge" "$name" \
    -- set Interface "$name" "ofport_request=$ofport" "external_ids=$ids" \
    -- set Port "$name" "tag=$tag" "other_config=$config"
done
