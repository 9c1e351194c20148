# The all-in-one OpenStack's settings, shared by up.sh, down.sh and whoever talks to it (run inside
# the namespace: `ip netns exec "$OS_NETNS" openstack …`).
export OS_NETNS=${OS_NETNS:-lpos}
export OS_STATE=${OS_STATE:-/tmp/launchpad-openstack}
# "The internet" as the cloud sees it: a namespace at the far end of the external network, holding
# its gateway address; floating IPs are reached from there.
export OS_OUTSIDE_NETNS=${OS_OUTSIDE_NETNS:-lpos-out}
export OS_PUBLIC_CIDR=203.0.113.0/24 OS_PUBLIC_GATEWAY=203.0.113.1
# Where the project networks' VXLAN tunnels start (inside the namespace).
export OS_TUNNEL_IP=192.0.2.1
# Nova's noVNC proxy (the servers' remote consoles), on the namespace's 127.0.0.1.
export OS_NOVNC_PORT=6080
export OS_SQL_SOCKET=$OS_STATE/run/mysql.sock
export OS_SERVICE_PASSWORD=${OS_SERVICE_PASSWORD:-launchpad-service}
export OS_ADMIN_PASSWORD=${OS_ADMIN_PASSWORD:-launchpad-admin}
export OS_AUTH_URL=http://127.0.0.1:5000/v3/
export OS_REGION_NAME=RegionOne
export OS_USERNAME=admin OS_PASSWORD=$OS_ADMIN_PASSWORD OS_PROJECT_NAME=admin
export OS_USER_DOMAIN_NAME=Default OS_PROJECT_DOMAIN_NAME=Default OS_IDENTITY_API_VERSION=3

# Whether the service whose pid file is run/<name>.pid is running.
pid_alive() {
  local file=$OS_STATE/run/$1.pid
  [ -f "$file" ] && kill -0 "$(cat "$file")" 2> /dev/null
}
