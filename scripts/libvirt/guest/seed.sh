#!/bin/sh
# Reads the cloud-init seed — NoCloud (an ISO 9660 volume labelled `cidata`: libvirt) or an
# OpenStack config drive (labelled `config-2`: Nova) — and applies what this image needs of it:
# instance id, host name, one user with a password hash and SSH keys.
say() { echo "$*" > /dev/ttyS0; echo "$*" > /dev/tty1 2>/dev/null; }

# A YAML scalar, plain or quoted ('' stands for ' inside single quotes).
unquote() {
  sed -e "s/^'\(.*\)'\$/\1/" -e "s/''/'/g" -e 's/^"\(.*\)"$/\1/'
}
value() { sed -n "s/^[[:space:]]*$1:[[:space:]]*//p" "$2" | head -n1 | unquote; }

device=$(findfs LABEL=cidata 2>/dev/null || findfs LABEL=config-2 2>/dev/null)
if [ -z "$device" ]; then
  # findfs may not know the volume: the ISO's label is at byte 32808 of the disk.
  for d in /dev/vd? /dev/sr?; do
    [ -b "$d" ] || continue
    label=$(dd if="$d" bs=1 skip=32808 count=8 2>/dev/null)
    case "$label" in cidata* | config-2) device=$d && break ;; esac
  done
fi
if [ -z "$device" ] || ! mount -o ro -t iso9660 "$device" /mnt/seed 2>/dev/null; then
  say "LAUNCHPAD-SEED none"
  exit 0
fi

# A key's string value in the config drive's one-line JSON.
json() { sed -n "s/.*\"$1\": *\"\([^\"]*\)\".*/\1/p" "$2"; }
if [ -f /mnt/seed/openstack/latest/meta_data.json ]; then
  meta=/mnt/seed/openstack/latest/meta_data.json
  user_data=/mnt/seed/openstack/latest/user_data
  instance=$(json uuid "$meta")
  host=$(json hostname "$meta")
  host=${host%%.*}
else
  meta=/mnt/seed/meta-data
  user_data=/mnt/seed/user-data
  instance=$(value instance-id "$meta")
  host=$(value local-hostname "$meta")
fi
[ -n "$host" ] || host=$(value hostname "$user_data")
user=$(sed -n 's/^[[:space:]]*-[[:space:]]*name:[[:space:]]*//p' "$user_data" | head -n1 | unquote)
hash=$(value passwd "$user_data")
awk '
  /^[[:space:]]*ssh_authorized_keys:/ { keys = 1; next }
  keys && /^[[:space:]]*- / { sub(/^[[:space:]]*- /, ""); print; next }
  keys { keys = 0 }
' "$user_data" | unquote > /tmp/keys
count=$(grep -c . /tmp/keys)

say "LAUNCHPAD-SEED instance=$instance hostname=$host user=$user password_hash=$hash keys=$count"
while IFS= read -r key; do say "LAUNCHPAD-SEED-KEY $key"; done < /tmp/keys

echo "$instance" > /etc/instance-id
[ -n "$host" ] && hostname "$host" && echo "$host" > /etc/hostname
if [ -n "$user" ]; then
  echo "$user:x:1000:1000:$user:/home/$user:/bin/sh" >> /etc/passwd
  echo "$user:${hash:-!}:20000:0:99999:7:::" >> /etc/shadow
  echo "$user:x:1000:" >> /etc/group
  mkdir -p "/home/$user/.ssh"
  cp /tmp/keys "/home/$user/.ssh/authorized_keys"
  chmod 700 "/home/$user/.ssh"
  chmod 600 "/home/$user/.ssh/authorized_keys"
  chown -R 1000:1000 "/home/$user"
  # The same keys open root's account: a cloud image's default user has sudo, and the tests act
  # as root in a guest (as an attacker who owns it would) to change its addresses.
  mkdir -p /root/.ssh
  cp /tmp/keys /root/.ssh/authorized_keys
  chmod 700 /root/.ssh
  chmod 600 /root/.ssh/authorized_keys
fi
umount /mnt/seed
