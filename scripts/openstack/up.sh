#!/usr/bin/env bash
# An all-in-one OpenStack from Debian's packages (Zed on bookworm; PyPI is not reachable here),
# every service inside a network namespace of its own, its state, configuration and logs under one
# directory: MariaDB (unix socket only), RabbitMQ, Keystone, Glance (file store), Placement, Nova
# (API, conductor, scheduler, noVNC proxy, and a compute service on a libvirtd of its own, QEMU
# TCG) and Neutron (ML2 with Open vSwitch on its userspace datapath: VXLAN project networks, a flat
# external network; DHCP and L3 agents), on the namespace's 127.0.0.1.
# `scripts/openstack/down.sh` stops it all by pid and removes the namespace and the state.
set -euo pipefail
cd "$(dirname "$0")"
source ./env.sh

step() { printf '== %s (%ss)\n' "$*" "$SECONDS"; }

step "packages"
PACKAGES=(keystone glance-api placement-api nova-api nova-conductor nova-scheduler nova-compute
  nova-compute-qemu nova-consoleproxy libvirt-daemon-system neutron-server openvswitch-switch
  neutron-openvswitch-agent neutron-dhcp-agent neutron-l3-agent ethtool python3-openstackclient
  mariadb-server python3-pymysql rabbitmq-server uwsgi-plugin-python3)
missing=$(dpkg-query -W -f='${Package} ${Status}\n' "${PACKAGES[@]}" 2>&1 | grep -v ' install ok installed$' || true)
if [ -n "$missing" ]; then
  # The packages would start their services on the host and create databases: neither here.
  for pkg in keystone glance-common nova-common neutron-common placement-common; do
    name=${pkg%-common}
    echo "$pkg $name/configure_db boolean false" | debconf-set-selections
    echo "$pkg $name/dbconfig-install boolean false" | debconf-set-selections
  done
  restore_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    restore_policy=1
  fi
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${PACKAGES[@]}"
  [ "$restore_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
fi

step "namespace $OS_NETNS and $OS_STATE"
mkdir -p "$OS_STATE"/{log,run/lock,keystone,glance/images,glance/staging,glance/tasks,placement,nova/instances,rabbitmq,neutron}
ip netns list | grep -qw "$OS_NETNS" || ip netns add "$OS_NETNS"
ip netns exec "$OS_NETNS" ip link set lo up
in_ns() { ip netns exec "$OS_NETNS" "$@"; }

step "MariaDB"
if [ ! -d "$OS_STATE/mysql/mysql" ]; then
  mariadb-install-db --user=root --datadir="$OS_STATE/mysql" --auth-root-authentication-method=socket \
    > "$OS_STATE/log/mariadb-install.log"
fi
if ! pid_alive mariadb; then
  # A socket left by a MariaDB that was killed would end the wait below before this one listens.
  rm -f "$OS_SQL_SOCKET"
  # Detached, its output in its log: nothing of it holds the caller's terminal or pipes.
  setsid ip netns exec "$OS_NETNS" mariadbd --user=root --datadir="$OS_STATE/mysql" \
    --socket="$OS_SQL_SOCKET" --skip-networking --pid-file="$OS_STATE/run/mariadb.pid" \
    --log-error="$OS_STATE/log/mariadb.log" < /dev/null >> "$OS_STATE/log/mariadb.log" 2>&1 &
  echo $! > "$OS_STATE/run/mariadb.pid"
  for _ in $(seq 1 60); do
    mariadb-admin --socket="$OS_SQL_SOCKET" -uroot ping > /dev/null 2>&1 && break
    sleep 0.5
  done
fi
sql() { mariadb --socket="$OS_SQL_SOCKET" -uroot "$@"; }
# sql_url DATABASE [USER]: a service's database, through MariaDB's socket.
sql_url() {
  echo "mysql+pymysql://${2:-$1}:$OS_SERVICE_PASSWORD@localhost/$1?unix_socket=$OS_SQL_SOCKET"
}
sql -e "SELECT 1" > /dev/null

# detached NAME LAUNCHER…: a service started by LAUNCHER (which ends by exec'ing it), detached, its
# output in its log, its pid kept. setsid, ip netns exec and nsenter all exec: $! is its own pid.
detached() {
  local name=$1
  shift
  pid_alive "$name" && return
  setsid "$@" < /dev/null >> "$OS_STATE/log/$name.out" 2>&1 &
  echo $! > "$OS_STATE/run/$name.pid"
}
# daemon NAME COMMAND…: a service in the namespace.
daemon() { detached "$1" ip netns exec "$OS_NETNS" "${@:2}"; }

step "RabbitMQ"
export RABBITMQ_NODENAME=rabbit@localhost RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 \
  RABBITMQ_MNESIA_BASE=$OS_STATE/rabbitmq RABBITMQ_LOG_BASE=$OS_STATE/log \
  RABBITMQ_PID_FILE=$OS_STATE/run/rabbitmq.pid RABBITMQ_ENABLED_PLUGINS_FILE=$OS_STATE/rabbitmq/plugins \
  RABBITMQ_CONFIG_FILE=$OS_STATE/rabbitmq/rabbitmq ERL_EPMD_ADDRESS=127.0.0.1 HOME=$OS_STATE/rabbitmq
echo "[]." > "$OS_STATE/rabbitmq/plugins"
touch "$OS_STATE/rabbitmq/rabbitmq.conf"
# Debian's wrappers switch to the rabbitmq user and its home: the server and its control tool run
# as they are, with this directory as their home (the Erlang cookie is kept there).
rabbitmqctl() { in_ns /usr/lib/rabbitmq/bin/rabbitmqctl "$@"; }
if ! pid_alive rabbitmq; then
  setsid ip netns exec "$OS_NETNS" /usr/lib/rabbitmq/bin/rabbitmq-server < /dev/null \
    >> "$OS_STATE/log/rabbitmq.out" 2>&1 &
fi
rabbitmqctl wait --timeout 120 "$RABBITMQ_PID_FILE" > /dev/null
rabbitmqctl list_users -q | grep -q '^openstack' ||
  rabbitmqctl add_user openstack "$OS_SERVICE_PASSWORD" > /dev/null
rabbitmqctl set_permissions openstack '.*' '.*' '.*' > /dev/null
# database:its user (Nova's three databases are Nova's).
for pair in keystone:keystone glance:glance placement:placement nova_api:nova nova:nova nova_cell0:nova neutron:neutron; do
  db=${pair%:*} user=${pair#*:}
  sql -e "CREATE DATABASE IF NOT EXISTS $db; CREATE USER IF NOT EXISTS '$user'@'localhost' IDENTIFIED BY '$OS_SERVICE_PASSWORD'; GRANT ALL ON $db.* TO '$user'@'localhost';"
done

step "Keystone"
cat > "$OS_STATE/keystone/keystone.conf" <<CONF
[DEFAULT]
log_dir = $OS_STATE/log
[database]
connection = $(sql_url keystone)
[token]
provider = fernet
[fernet_tokens]
key_repository = $OS_STATE/keystone/fernet-keys
[fernet_receipts]
key_repository = $OS_STATE/keystone/fernet-keys
[credential]
key_repository = $OS_STATE/keystone/credential-keys
CONF
keystone_manage() { keystone-manage --config-file "$OS_STATE/keystone/keystone.conf" "$@"; }
keystone_manage db_sync
[ -d "$OS_STATE/keystone/fernet-keys" ] || keystone_manage fernet_setup --keystone-user root --keystone-group root
[ -d "$OS_STATE/keystone/credential-keys" ] || keystone_manage credential_setup --keystone-user root --keystone-group root
keystone_manage bootstrap --bootstrap-password "$OS_ADMIN_PASSWORD" \
  --bootstrap-admin-url "$OS_AUTH_URL" --bootstrap-public-url "$OS_AUTH_URL" \
  --bootstrap-internal-url "$OS_AUTH_URL" --bootstrap-region-id "$OS_REGION_NAME"
# serve NAME PORT WSGI-FILE [VAR=value…]: a service's WSGI application under uwsgi in the namespace.
# uwsgi's plain HTTP socket does not keep connections alive: clients are told so (a reused
# connection is reset, and a PUT is not retried).
serve() {
  local name=$1 port=$2 app=$3
  shift 3
  pid_alive "$name" && return
  in_ns env "$@" uwsgi --plugins python3 --http-socket "127.0.0.1:$port" --wsgi-file "$app" \
    --master --processes 2 --threads 2 --die-on-term --lazy-apps --buffer-size 65535 \
    --add-header 'Connection: close' \
    --pidfile "$OS_STATE/run/$name.pid" --daemonize "$OS_STATE/log/$name-uwsgi.log"
}
# wait_http URL: until it answers (any status), at most 60 s.
wait_http() {
  for _ in $(seq 1 120); do
    in_ns curl -s -o /dev/null "$1" && return
    sleep 0.5
  done
  echo "no answer from $1" >&2
  return 1
}
serve keystone 5000 /usr/bin/keystone-wsgi-public OS_KEYSTONE_CONFIG_FILES="$OS_STATE/keystone/keystone.conf"
wait_http "$OS_AUTH_URL"
os() { in_ns openstack "$@"; }
os token issue -f value -c expires > /dev/null

# register NAME TYPE URL: a service user (admin in project service), the service and its endpoints.
register() {
  local name=$1 type=$2 url=$3
  os user show "$name" > /dev/null 2>&1 ||
    os user create --domain Default --password "$OS_SERVICE_PASSWORD" "$name" > /dev/null
  os role add --project service --user "$name" admin
  os service show "$name" > /dev/null 2>&1 || os service create --name "$name" "$type" > /dev/null
  for interface in public internal admin; do
    [ -n "$(os endpoint list --service "$name" --interface "$interface" -f value -c ID)" ] ||
      os endpoint create --region "$OS_REGION_NAME" "$name" "$interface" "$url" > /dev/null
  done
}
os project show service > /dev/null 2>&1 || os project create --domain Default service > /dev/null

# credentials NAME: the options with which service user NAME signs in to Keystone.
credentials() {
  cat <<CONF
auth_url = http://127.0.0.1:5000/v3
auth_type = password
project_domain_name = Default
user_domain_name = Default
project_name = service
username = $1
password = $OS_SERVICE_PASSWORD
CONF
}

# authtoken NAME: how a service checks the tokens it is given.
authtoken() {
  printf '[keystone_authtoken]\nwww_authenticate_uri = http://127.0.0.1:5000\n'
  credentials "$1"
}

step "Glance (file store)"
register glance image http://127.0.0.1:9292
cp /etc/glance/glance-api-paste.ini "$OS_STATE/glance/"
cat > "$OS_STATE/glance/glance-api.conf" <<CONF
[DEFAULT]
log_dir = $OS_STATE/log
enabled_backends = file:file
[glance_store]
default_backend = file
[file]
filesystem_store_datadir = $OS_STATE/glance/images
[os_glance_staging_store]
filesystem_store_datadir = $OS_STATE/glance/staging
[os_glance_tasks_store]
filesystem_store_datadir = $OS_STATE/glance/tasks
[database]
connection = $(sql_url glance)
[paste_deploy]
flavor = keystone
[oslo_concurrency]
lock_path = $OS_STATE/run/lock
$(authtoken glance)
CONF
glance-manage --config-file "$OS_STATE/glance/glance-api.conf" db_sync > "$OS_STATE/log/glance-manage.out" 2>&1
serve glance 9292 /usr/bin/glance-wsgi-api OS_GLANCE_CONFIG_DIR="$OS_STATE/glance"
wait_http http://127.0.0.1:9292/
os image list > /dev/null

step "Placement"
register placement placement http://127.0.0.1:8778
cat > "$OS_STATE/placement/placement.conf" <<CONF
[DEFAULT]
log_dir = $OS_STATE/log
[placement_database]
connection = $(sql_url placement)
[api]
auth_strategy = keystone
$(authtoken placement)
CONF
placement-manage --config-dir "$OS_STATE/placement" db sync
serve placement 8778 /usr/bin/placement-api OS_PLACEMENT_CONFIG_DIR="$OS_STATE/placement"
wait_http http://127.0.0.1:8778/
[ "$(in_ns curl -s -o /dev/null -w '%{http_code}' -H "X-Auth-Token: $(os token issue -f value -c id)" \
  http://127.0.0.1:8778/resource_providers)" = 200 ]

step "Nova: API, conductor, scheduler"
register nova compute http://127.0.0.1:8774/v2.1
cp /etc/nova/api-paste.ini "$OS_STATE/nova/"
cat > "$OS_STATE/nova/nova.conf" <<CONF
[DEFAULT]
log_dir = $OS_STATE/log
state_path = $OS_STATE/nova
my_ip = 127.0.0.1
transport_url = rabbit://openstack:$OS_SERVICE_PASSWORD@127.0.0.1:5672/
[api]
auth_strategy = keystone
[api_database]
connection = $(sql_url nova_api nova)
[database]
connection = $(sql_url nova)
[glance]
api_servers = http://127.0.0.1:9292
[oslo_concurrency]
lock_path = $OS_STATE/run/lock
[placement]
region_name = $OS_REGION_NAME
$(credentials placement)
[service_user]
send_service_user_token = true
$(credentials nova)
[scheduler]
discover_hosts_in_cells_interval = 10
[neutron]
region_name = $OS_REGION_NAME
$(credentials neutron)
[DEFAULT]
compute_driver = libvirt.LibvirtDriver
instances_path = $OS_STATE/nova/instances
# The product's sizes are real ones (Micro: 2 cores, 4 GB, 80 GB disk): on a test machine they are
# promised far beyond its cores, memory and disk; a busybox guest uses a sliver of each.
initial_cpu_allocation_ratio = 64
initial_ram_allocation_ratio = 16
initial_disk_allocation_ratio = 16
# Every server gets its cloud-init data on a config drive (no metadata service here).
force_config_drive = true
# One compute host: a resize stays on it.
allow_resize_to_same_host = true
[vnc]
# Each guest's screen on the namespace's loopback, reached through Nova's noVNC proxy.
enabled = true
server_listen = 127.0.0.1
server_proxyclient_address = 127.0.0.1
novncproxy_host = 127.0.0.1
novncproxy_port = $OS_NOVNC_PORT
novncproxy_base_url = http://127.0.0.1:$OS_NOVNC_PORT/vnc_lite.html
[libvirt]
virt_type = qemu
connection_uri = qemu+unix:///system?socket=$OS_STATE/libvirt/run/libvirt-sock
$(authtoken nova)
CONF
nova_manage() { nova-manage --config-file "$OS_STATE/nova/nova.conf" "$@"; }
nova_manage api_db sync > "$OS_STATE/log/nova-manage.out" 2>&1
# Read whole before grep: `grep -q` leaving early would fail the listing with SIGPIPE.
cells=$(nova_manage cell_v2 list_cells)
grep -q ' cell0 ' <<< "$cells" || nova_manage cell_v2 map_cell0 >> "$OS_STATE/log/nova-manage.out" 2>&1
grep -q ' cell1 ' <<< "$cells" ||
  nova_manage cell_v2 create_cell --name cell1 >> "$OS_STATE/log/nova-manage.out" 2>&1
nova_manage db sync >> "$OS_STATE/log/nova-manage.out" 2>&1
# Under uwsgi no eventlet hub sends the API's AMQP heartbeats: without a thread of their own,
# RabbitMQ drops its connections after a quiet minute and a call sent on one is lost (a server
# left "deleting" for good).
printf '[oslo_messaging_rabbit]\nheartbeat_in_pthread = true\n' > "$OS_STATE/nova/nova-api.conf"
serve nova-api 8774 /usr/bin/nova-api-wsgi OS_NOVA_CONFIG_DIR="$OS_STATE/nova" \
  OS_NOVA_CONFIG_FILES='api-paste.ini;nova.conf;nova-api.conf'
daemon nova-conductor nova-conductor --config-file "$OS_STATE/nova/nova.conf"
daemon nova-scheduler nova-scheduler --config-file "$OS_STATE/nova/nova.conf"
daemon nova-novncproxy nova-novncproxy --config-file "$OS_STATE/nova/nova.conf" \
  --web /usr/share/novnc
wait_http http://127.0.0.1:8774/

step "Nova compute on a libvirtd of its own"
# libvirtd and virtlogd in a mount namespace whose /run/libvirt, /var/lib/libvirt, /var/log/libvirt
# and /etc/libvirt are directories of the state, inside the network namespace: the host's libvirt
# is not touched. Neutron's agents join that mount namespace, whose /run/netns is its own: the
# namespaces they make for DHCP and routers never show on the host. Its /sys is mounted afresh from
# inside the network namespace: /sys/class/net then lists the namespace's links, not the host's;
# the cgroups (QEMU's) are moved under it. Open vSwitch runs there too, its database and sockets at
# their usual paths (where libvirt and Neutron look for them), which are directories of the state.
mkdir -p "$OS_STATE"/libvirt/{run,lib,log,cache} "$OS_STATE/run/cgroup" "$OS_STATE"/ovs/{etc,run}
[ -d "$OS_STATE/libvirt/etc" ] || cp -r /etc/libvirt "$OS_STATE/libvirt/etc"
mkdir -p /run/libvirt /var/lib/libvirt /var/log/libvirt /var/cache/libvirt /run/openvswitch \
  /etc/openvswitch
if ! pid_alive libvirt; then
  setsid unshare --mount --propagation private -- bash -euc "
    mount --bind $OS_STATE/libvirt/run /run/libvirt
    mount --bind $OS_STATE/libvirt/lib /var/lib/libvirt
    mount --bind $OS_STATE/libvirt/log /var/log/libvirt
    mount --bind $OS_STATE/libvirt/cache /var/cache/libvirt
    mount --bind $OS_STATE/libvirt/etc /etc/libvirt
    mount --bind $OS_STATE/ovs/run /run/openvswitch
    mount --bind $OS_STATE/ovs/etc /etc/openvswitch
    echo \$\$ > $OS_STATE/run/libvirt.pid
    exec nsenter --net=/run/netns/$OS_NETNS -- bash -euc '
      mount -t tmpfs -o mode=0755 lpos-netns /run/netns
      mount --rbind /sys/fs/cgroup $OS_STATE/run/cgroup
      mount -t sysfs lpos-sys /sys
      mount --move $OS_STATE/run/cgroup /sys/fs/cgroup
      virtlogd -d
      libvirtd -d
      exec sleep infinity'
  " < /dev/null >> "$OS_STATE/log/libvirt.out" 2>&1 &
fi
for _ in $(seq 1 100); do [ -S "$OS_STATE/libvirt/run/libvirt-sock" ] && break; sleep 0.2; done
daemon nova-compute nova-compute --config-file "$OS_STATE/nova/nova.conf"
for _ in $(seq 1 180); do
  [ "$(os compute service list -f value -c Binary -c State | grep -c ' up$')" -ge 3 ] && break
  sleep 1
done
nova_manage cell_v2 discover_hosts >> "$OS_STATE/log/nova-manage.out" 2>&1
os compute service list -f value -c Binary -c State
os hypervisor list -f value -c 'Hypervisor Hostname' -c 'Hypervisor Type' -c State

step "Open vSwitch (userspace datapath)"
# in_host_ns COMMAND…: in libvirtd's mount namespace (and the network namespace).
in_host_ns() { nsenter -t "$(cat "$OS_STATE/run/libvirt.pid")" -m -n -- "$@"; }
# host_daemon NAME COMMAND…: a service there.
host_daemon() { detached "$1" nsenter -t "$(cat "$OS_STATE/run/libvirt.pid")" -m -n -- "${@:2}"; }
# This kernel has no OVS datapath (CONFIG_OPENVSWITCH is not set): every bridge is a `netdev` one,
# switched by ovs-vswitchd itself; ports are the links' packet sockets.
[ -f "$OS_STATE/ovs/etc/conf.db" ] ||
  ovsdb-tool create "$OS_STATE/ovs/etc/conf.db" /usr/share/openvswitch/vswitch.ovsschema
if ! pid_alive ovsdb-server; then
  in_host_ns ovsdb-server /etc/openvswitch/conf.db --remote=punix:/run/openvswitch/db.sock \
    --remote=ptcp:6640:127.0.0.1 --pidfile="$OS_STATE/run/ovsdb-server.pid" --detach \
    --log-file="$OS_STATE/log/ovsdb-server.log"
fi
ovs_vsctl() { in_host_ns ovs-vsctl "$@"; }
ovs_vsctl --no-wait init
# Guests' virtio links hand over packets whose checksums and segmentation are left to the switch:
# the userspace datapath completes them.
ovs_vsctl --no-wait set Open_vSwitch . other_config:userspace-tso-enable=true
if ! pid_alive ovs-vswitchd; then
  in_host_ns ovs-vswitchd --pidfile="$OS_STATE/run/ovs-vswitchd.pid" --detach \
    --log-file="$OS_STATE/log/ovs-vswitchd.log"
fi
host_daemon tap-replug bash "$PWD/tap-replug.sh"

step "Neutron"
register neutron network http://127.0.0.1:9696
# The physical side (veth pairs: the dummy link's module may not be loadable here): the link the
# VXLAN tunnels of project networks start from, and the external network's, whose far end is in the
# outside namespace; this end is a port of the external bridge.
ip netns list | grep -qw "$OS_OUTSIDE_NETNS" || ip netns add "$OS_OUTSIDE_NETNS"
out_ns() { ip netns exec "$OS_OUTSIDE_NETNS" "$@"; }
in_ns ip link show lpos-tenant > /dev/null 2>&1 || in_ns ip link add lpos-tenant type veth peer name lpos-tenant-p
in_ns ip link set lpos-tenant-p up
in_ns ip addr replace "$OS_TUNNEL_IP/24" dev lpos-tenant
in_ns ip link show lpos-ext > /dev/null 2>&1 ||
  in_ns ip link add lpos-ext type veth peer name lpos-ext-p netns "$OS_OUTSIDE_NETNS"
for link in lpos-tenant lpos-ext; do in_ns ip link set "$link" up; done
out_ns ip link set lo up
out_ns ip addr replace "$OS_PUBLIC_GATEWAY/${OS_PUBLIC_CIDR#*/}" dev lpos-ext-p
out_ns ip link set lpos-ext-p up
ovs_vsctl --may-exist add-br br-ex -- set Bridge br-ex datapath_type=netdev \
  -- --may-exist add-port br-ex lpos-ext
cat > "$OS_STATE/neutron/neutron.conf" <<CONF
[DEFAULT]
core_plugin = ml2
service_plugins = router
auth_strategy = keystone
transport_url = rabbit://openstack:$OS_SERVICE_PASSWORD@127.0.0.1:5672/
bind_host = 127.0.0.1
bind_port = 9696
state_path = $OS_STATE/neutron
log_dir = $OS_STATE/log
notify_nova_on_port_status_changes = true
notify_nova_on_port_data_changes = true
[database]
connection = $(sql_url neutron)
[nova]
region_name = $OS_REGION_NAME
$(credentials nova)
[oslo_concurrency]
lock_path = $OS_STATE/run/lock
[agent]
# Everything here runs as root already.
root_helper = env
tunnel_types = vxlan
l2_population = false
[ml2]
# Project networks are VXLAN segments (one host: no tunnel opens; br-int keeps them apart by VLAN
# tags of its own).
type_drivers = flat,vxlan
tenant_network_types = vxlan
mechanism_drivers = openvswitch
extension_drivers = port_security
[ml2_type_flat]
flat_networks = external
[ml2_type_vxlan]
vni_ranges = 1001:2000
[ovs]
datapath_type = netdev
integration_bridge = br-int
tunnel_bridge = br-tun
bridge_mappings = external:br-ex
local_ip = $OS_TUNNEL_IP
[securitygroup]
# Port security: a port sends from its own MAC and addresses only, and no DHCP answers (the product
# makes every port with it, in a group that lets all traffic through). Open vSwitch's own firewall
# enforces it, as flows of the userspace datapath (with its connection tracking).
enable_security_group = true
firewall_driver = openvswitch
$(authtoken neutron)
CONF
# The DHCP and router namespaces' links are veth pairs whose outer end is a port of the
# integration bridge: the userspace datapath does not switch an internal port moved to another
# namespace.
cat > "$OS_STATE/neutron/agents.ini" <<CONF
[DEFAULT]
interface_driver = openvswitch
ovs_use_veth = true
CONF
neutron_conf=(--config-file "$OS_STATE/neutron/neutron.conf")
neutron-db-manage "${neutron_conf[@]}" upgrade heads > "$OS_STATE/log/neutron-db-manage.out" 2>&1
daemon neutron-server neutron-server "${neutron_conf[@]}"
wait_http http://127.0.0.1:9696/
# agent NAME: a Neutron agent in libvirtd's mount namespace (and the network namespace).
agent() { host_daemon "$1" "$1" "${neutron_conf[@]}" --config-file "$OS_STATE/neutron/agents.ini"; }
agent neutron-openvswitch-agent
agent neutron-dhcp-agent
agent neutron-l3-agent
for _ in $(seq 1 120); do
  [ "$(os network agent list -f value -c Alive | grep -c True)" -ge 3 ] && break
  sleep 1
done
os network agent list -f value -c 'Agent Type' -c Alive

step "the cloud's offer: external network, test image, flavors"
os network show public > /dev/null 2>&1 ||
  os network create --external --share --provider-network-type flat \
    --provider-physical-network external public > /dev/null
# The cloud picks its own addresses (a router's gateway without a chosen one) from .200-.250; the
# product's regions take blocks below, chosen address by address.
os subnet show public-v4 > /dev/null 2>&1 ||
  os subnet create --network public --subnet-range "$OS_PUBLIC_CIDR" --gateway "$OS_PUBLIC_GATEWAY" \
    --no-dhcp --allocation-pool "start=${OS_PUBLIC_CIDR%.*/*}.200,end=${OS_PUBLIC_CIDR%.*/*}.250" \
    public-v4 > /dev/null
# The libvirt driver's test guest (busybox, cloud-init seed, SSH and HTTP): its kernel and initrd
# as Glance's kernel and ramdisk images, its disk pointing at them.
image_dir=$(realpath -m ../../data/libvirt/images/launchpad-busybox)
[ -f "$image_dir/image.json" ] || bash ../libvirt/build-image.sh "$image_dir"
if ! os image show launchpad-busybox > /dev/null 2>&1; then
  kernel=$(os image create --disk-format aki --container-format aki --public \
    --file "$image_dir/vmlinuz" launchpad-busybox-kernel -f value -c id)
  ramdisk=$(os image create --disk-format ari --container-format ari --public \
    --file "$image_dir/initrd.img" launchpad-busybox-ramdisk -f value -c id)
  os image create --disk-format qcow2 --container-format bare --public \
    --file "$image_dir/base.qcow2" --property kernel_id="$kernel" --property ramdisk_id="$ramdisk" \
    --property os_command_line="$(sed -n 's/.*"cmdline": "\(.*\)".*/\1/p' "$image_dir/image.json")" \
    launchpad-busybox > /dev/null
fi
# The product's six sizes (cores, RAM GB, disk GB), as flavors of the same names. Placement never
# gives one server more cores than the host has, nor more memory, whatever the over-commit: on a
# small test machine the larger sizes get the host's cores and at most 8 GB (a real cloud's flavors
# are the sizes themselves).
host_cores=$(nproc)
while read -r name cores ram disk; do
  cores=$((cores < host_cores ? cores : host_cores)) ram=$((ram < 8 ? ram : 8))
  os flavor show "$name" > /dev/null 2>&1 ||
    os flavor create --public --vcpus "$cores" --ram $((ram * 1024)) --disk "$disk" "$name" > /dev/null
done <<SIZES
lp.micro 2 4 80
lp.extraSmall 4 8 120
lp.small 6 10 180
lp.medium 8 12 240
lp.large 12 48 300
lp.extraLarge 16 64 400
SIZES

step "the product's accounts: projects launchpad and launchpad-b, their user and credentials"
# Two projects stand for two clouds serving one region (two providers of the product's catalogue).
os user show launchpad > /dev/null 2>&1 ||
  os user create --domain Default --password "$OS_SERVICE_PASSWORD" launchpad > /dev/null
for project in launchpad launchpad-b; do
  os project show "$project" > /dev/null 2>&1 ||
    os project create --domain Default "$project" > /dev/null
  # Neutron's and Nova's default policies let only an admin choose a floating IP's or a router
  # gateway's address, and read a server's diagnostics.
  os role add --project "$project" --user launchpad admin
  os quota set --instances 100 --cores 2000 --ram 8000000 --networks 100 --subnets 100 --ports 500 \
    --routers 50 --floating-ips 100 "$project"
  if [ ! -s "$OS_STATE/$project-credential.json" ]; then
    in_ns env OS_USERNAME=launchpad OS_PASSWORD="$OS_SERVICE_PASSWORD" OS_PROJECT_NAME="$project" \
      openstack application credential create "$project-console" -f json -c id -c secret \
      > "$OS_STATE/$project-credential.json"
  fi
done

step "up: inside namespace $OS_NETNS ($(du -sh "$OS_STATE" | cut -f1) of state)"
