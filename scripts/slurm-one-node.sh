#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying docs/cluster.md's sbatch scripts for real
# (test/cli/slurm.test.ts does). Debian's slurm-wlm and munge, run as root:
#
#   export SLURM_CONF="$(scripts/slurm-one-node.sh start)"   # then sbatch, squeue, scontrol as usual
#   scripts/slurm-one-node.sh status                          # exit 0 when the node answers
#   scripts/slurm-one-node.sh stop
#
# Everything Slurm keeps (its slurm.conf, state, spool, logs, pid files) lives in one folder,
# MUSTER_SLURM_DIR (default /tmp/muster-slurm), so /etc/slurm is never touched; the daemons and
# the clients read it through SLURM_CONF. munged is the system's: started here only when it is
# not running already, and then stopped by `stop`. `start` when the cluster is up changes nothing.
set -euo pipefail

dir="${MUSTER_SLURM_DIR:-/tmp/muster-slurm}"
conf="$dir/slurm.conf"
export SLURM_CONF="$conf"
wait_seconds="${MUSTER_SLURM_WAIT:-60}"

fail() {
  echo "slurm-one-node: $*" >&2
  exit 1
}

# Whether the process in pid file $1 is alive.
running() {
  [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

munge_works() {
  munge -n 2>/dev/null | unmunge >/dev/null 2>&1
}

# The name slurmd gives itself (gethostname, up to the first dot).
node_name() {
  local name
  name="$(uname -n)"
  echo "${name%%.*}"
}

# The node's state as sinfo reports it (idle, mixed, down*, …), empty while slurmctld does not answer.
node_state() {
  timeout 10 sinfo --noheader --nodes="$(node_name)" --format=%T 2>/dev/null | head -n 1 || true
}

start_munge() {
  munge_works && return 0
  command -v munged >/dev/null || fail "munged is not installed (apt-get install -y munge)"
  if [ ! -s /etc/munge/munge.key ]; then
    mkdir -p /etc/munge
    if command -v mungekey >/dev/null; then
      mungekey --create --keyfile=/etc/munge/munge.key
    else
      dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
    fi
  fi
  # munged refuses a key or folder that anyone but its user can read or write.
  mkdir -p /run/munge /var/lib/munge /var/log/munge
  chown munge:munge /etc/munge /etc/munge/munge.key /run/munge /var/lib/munge /var/log/munge
  chmod 0700 /etc/munge /var/lib/munge /var/log/munge
  chmod 0755 /run/munge
  chmod 0400 /etc/munge/munge.key
  runuser -u munge -- munged || fail "munged did not start (see /var/log/munge/munged.log)"
  touch "$dir/munged.ours"
  for _ in $(seq 1 50); do
    munge_works && return 0
    sleep 0.2
  done
  fail "munged started but munge -n | unmunge fails (see /var/log/munge/munged.log)"
}

write_conf() {
  local node cpus memory
  node="$(node_name)"
  # slurmd -C reports the machine as slurmd will see it; a NodeName line that claims more than that
  # drains the node ("Low RealMemory"), so its CPUs and RealMemory are the ones slurmd -C gives.
  local hardware
  hardware="$(slurmd -C | head -n 1)"
  [[ "$hardware" == NodeName=* ]] || fail "slurmd -C did not describe this machine: $hardware"
  cpus="$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$hardware")"
  memory="$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$hardware")"
  [ -n "$cpus" ] && [ -n "$memory" ] || fail "slurmd -C gave no CPUs or RealMemory: $hardware"
  cat >"$conf.new" <<EOF
# Written by scripts/slurm-one-node.sh: a one-node cluster for trying sbatch scripts.
ClusterName=muster
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
# A requeued job waits out the job credential's lifetime before it starts again (120 s by default).
AuthInfo=cred_expire=10
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobRequeue=1
KillWait=5
MinJobAge=600
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=one Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$conf.new" "$conf"
}

start() {
  [ "$(id -u)" = 0 ] || fail "run as root (Slurm's daemons run as root here: SlurmUser=root)"
  command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sinfo >/dev/null ||
    fail "Slurm is not installed (apt-get install -y slurm-wlm munge)"
  mkdir -p "$dir"
  start_munge
  if ! running "$dir/slurmctld.pid"; then
    # A fresh controller forgets the jobs of the last cluster (-c, and an empty state folder).
    write_conf
    rm -rf "$dir/state" "$dir/spool"
    mkdir -p "$dir/state" "$dir/spool"
    slurmctld -c -f "$conf" || fail "slurmctld did not start (see $dir/slurmctld.log)"
  fi
  if ! running "$dir/slurmd.pid"; then
    mkdir -p "$dir/spool"
    slurmd -f "$conf" -N "$(node_name)" || fail "slurmd did not start (see $dir/slurmd.log)"
  fi
  local state="" deadline=$((SECONDS + wait_seconds))
  while [ "$SECONDS" -lt "$deadline" ]; do
    state="$(node_state)"
    case "$state" in
      idle | mixed | allocated | completing)
        echo "$conf"
        return 0
        ;;
      drain* | down*) scontrol update nodename="$(node_name)" state=resume >/dev/null 2>&1 || true ;;
    esac
    sleep 1
  done
  fail "node $(node_name) is not up after ${wait_seconds} s (sinfo: ${state:-no answer});" \
    "see $dir/slurmctld.log and $dir/slurmd.log"
}

# Stops the daemon in pid file $1, waiting (bounded) for it to go.
stop_daemon() {
  running "$1" || return 0
  local pid
  pid="$(cat "$1")"
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.2
  done
  kill -KILL "$pid" 2>/dev/null || true
}

stop() {
  if running "$dir/slurmctld.pid"; then
    # Jobs still running would outlive slurmd (each runs under its own slurmstepd).
    local jobs
    jobs="$(timeout 10 squeue --noheader --format=%A 2>/dev/null || true)"
    # shellcheck disable=SC2086 # one job id a word
    [ -z "$jobs" ] || timeout 10 scancel --quiet $jobs 2>/dev/null || true
  fi
  stop_daemon "$dir/slurmd.pid"
  stop_daemon "$dir/slurmctld.pid"
  if [ -e "$dir/munged.ours" ]; then
    stop_daemon /run/munge/munged.pid
    rm -f "$dir/munged.ours"
  fi
}

status() {
  running "$dir/slurmctld.pid" && running "$dir/slurmd.pid" || return 1
  case "$(node_state)" in
    idle | mixed | allocated | completing) echo "$conf" ;;
    *) return 1 ;;
  esac
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *)
    echo "usage: scripts/slurm-one-node.sh start|stop|status" >&2
    exit 2
    ;;
esac
