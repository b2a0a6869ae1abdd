#!/usr/bin/env bash
# Starts, stops or checks a one-node Slurm cluster on this machine, for trying the Slurm
# scripts (scripts/slurm/) and for the end-to-end test (tests/slurm.rs): munged,
# slurmctld and slurmd with a minimal configuration in $FOW_SLURM_DIR (default
# /tmp/fow-slurm), which leaves /etc/slurm alone. Commands talk to it with
# SLURM_CONF=$FOW_SLURM_DIR/slurm.conf (`start` prints the line to export).
#
# Needs the Debian packages slurm-wlm and munge (scripts/install-slurm.sh) and root, as
# slurmd runs jobs as their user. No cgroups are needed (proctrack/linuxproc, task/none).
#
#   scripts/local-slurm.sh start    # idempotent: a running cluster is only reported
#   scripts/local-slurm.sh status   # exit 0 when sinfo answers and the node is idle or busy
#   scripts/local-slurm.sh stop
set -euo pipefail

dir=${FOW_SLURM_DIR:-/tmp/fow-slurm}
conf=$dir/slurm.conf
export SLURM_CONF=$conf
host=$(hostname -s)

up() {
    [ -f "$conf" ] || return 1
    local state
    state=$(timeout 10 sinfo -h -N -o '%T' 2>/dev/null | head -n1) || return 1
    case "$state" in
        idle* | mix* | alloc* | allocated* | completing*) return 0 ;;
        *) return 1 ;;
    esac
}

start_munge() {
    if pgrep -x munged > /dev/null; then return 0; fi
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    if id munge > /dev/null 2>&1; then
        chown munge:munge /run/munge /var/log/munge /var/lib/munge /etc/munge /etc/munge/munge.key 2>/dev/null || true
        runuser -u munge -- munged || munged --force
    else
        munged --force
    fi
}

write_conf() {
    mkdir -p "$dir/state" "$dir/spool" "$dir/log"
    local cpus mem
    cpus=$(nproc)
    # slurmd refuses a node that claims more memory than it has: claim a quarter.
    mem=$(awk '/MemTotal/ { printf "%d", $2 / 4096 }' /proc/meminfo)
    cat > "$conf" <<EOF
# A one-node cluster for fow's tests (scripts/local-slurm.sh).
ClusterName=fow
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=fow Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

case "${1:-start}" in
    start)
        if up; then
            echo "local-slurm: running (export SLURM_CONF=$conf)"
            exit 0
        fi
        for cmd in munged slurmctld slurmd sinfo sbatch; do
            command -v "$cmd" > /dev/null || {
                echo "local-slurm: $cmd is not installed (scripts/install-slurm.sh)" >&2
                exit 1
            }
        done
        [ "$(id -u)" = 0 ] || {
            echo "local-slurm: slurmd needs root" >&2
            exit 1
        }
        write_conf
        start_munge
        pgrep -f "slurmctld -f $conf" > /dev/null || slurmctld -f "$conf"
        pgrep -f "slurmd -f $conf" > /dev/null || slurmd -f "$conf"
        for _ in $(seq 60); do
            if up; then
                echo "local-slurm: started (export SLURM_CONF=$conf)"
                exit 0
            fi
            sleep 1
        done
        echo "local-slurm: the cluster did not come up in 60 s; see $dir/log/" >&2
        exit 1
        ;;
    status)
        up
        ;;
    stop)
        pkill -f "slurmd -f $conf" || true
        pkill -f "slurmctld -f $conf" || true
        echo "local-slurm: stopped"
        ;;
    *)
        echo "usage: $0 start|status|stop" >&2
        exit 2
        ;;
esac
